import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// A reader who lands on a guide and copies its example must be told to install the package it
// imports: under npm an undeclared @mcpkit package may load anyway, hoisted from the CLI's
// dependencies, and then vanish from a production install that leaves the CLI out (what
// benchmarks.md advises), or never load under pnpm. The page says it, or a page it links to.
const DOCS = join(__dirname, '..');
const pages = readdirSync(DOCS).filter((file) => file.endsWith('.md'));
const text = new Map(pages.map((page) => [page, readFileSync(join(DOCS, page), 'utf8')]));

/** The @mcpkit packages a page's code imports: its code blocks and the example files it shows. */
function imported(page: string): Set<string> {
  const source = text.get(page) ?? '';
  const shown = [...source.matchAll(/<!-- example: (\S+) -->/g)]
    .map((match) => join(DOCS, 'examples', match[1]))
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file, 'utf8'));
  return new Set([source, ...shown].flatMap((code) => [...code.matchAll(/from '(@mcpkit\/[a-z-]+)/g)].map((match) => match[1])));
}

/** The @mcpkit packages an `npm install` line of the page names. */
function installed(page: string): Set<string> {
  const lines = (text.get(page) ?? '').match(/npm install [^\n`]*/g) ?? [];
  return new Set(lines.flatMap((line) => line.match(/@mcpkit\/[a-z-]+/g) ?? []));
}

/** The pages of docs/ the page links to. */
function linked(page: string): string[] {
  return [...(text.get(page) ?? '').matchAll(/\]\(([a-z0-9-]+\.md)(#[^)]*)?\)/g)].map((match) => match[1]).filter((target) => text.has(target));
}

describe('the docs say how to install what their examples import', () => {
  it.each(pages)('%s', (page) => {
    const reachable = new Set([...installed(page), ...linked(page).flatMap((target) => [...installed(target)])]);
    // Core is every page's: Getting started, where the site begins, installs it.
    const missing = [...imported(page)].filter((name) => name !== '@mcpkit/core' && !reachable.has(name));
    expect(missing).toEqual([]);
  });
});
