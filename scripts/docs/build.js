#!/usr/bin/env node
// The docs site. `pnpm docs:build`: the API reference (TypeDoc, one run over the public entry
// points of every published package, as Markdown into docs/reference/, git-ignored), then
// VitePress over docs/*.md into docs/.site/dist. `pnpm docs:dev` writes the reference and serves
// the site with live reload; `pnpm docs:preview` serves what docs:build wrote.
// `--reference-only` writes the reference alone. TypeDoc reads the sources (no workspace build
// needed); the output docs/test/examples.spec.ts records (.cache/docs/example-output.json) is shown
// under the examples when it is there.
'use strict';

const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const DOCS = join(ROOT, 'docs');
const REFERENCE = join(DOCS, 'reference');
const REPOSITORY = 'https://github.com/mcpkit/mcpkit';

/** Every public entry point: each published package's `exports` (but package.json), mapped back to its source file. */
function entryPoints() {
  const entries = [];
  for (const folder of readdirSync(join(ROOT, 'packages'))) {
    const manifestPath = join(ROOT, 'packages', folder, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    if (manifest.private) continue;
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      if (subpath === './package.json') continue;
      const built = typeof target === 'string' ? target : (target.types ?? target.default);
      const source = join(ROOT, 'packages', folder, built.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$|\.js$/, '.ts'));
      if (!existsSync(source)) throw new Error(`${manifest.name} exports ${subpath}, but ${relative(ROOT, source)} does not exist`);
      entries.push({ name: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`, source });
    }
  }
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}

async function buildReference() {
  const started = process.hrtime.bigint();
  const typedoc = await import(require.resolve('typedoc', { paths: [DOCS] }));
  const entries = entryPoints();
  rmSync(REFERENCE, { recursive: true, force: true });
  const app = await typedoc.Application.bootstrapWithPlugins({
    entryPoints: entries.map((entry) => entry.source),
    entryPointStrategy: 'resolve',
    tsconfig: join(__dirname, 'tsconfig.typedoc.json'),
    plugin: [require.resolve('typedoc-plugin-markdown', { paths: [DOCS] }), require.resolve('typedoc-vitepress-theme', { paths: [DOCS] })],
    out: REFERENCE,
    docsRoot: DOCS,
    readme: 'none',
    name: 'mcpkit API reference',
    // `pnpm build` and `pnpm typecheck` check these sources; TypeDoc only documents them.
    skipErrorChecking: true,
    excludePrivate: true,
    excludeInternal: true,
    disableGit: true,
    sourceLinkTemplate: `${REPOSITORY}/blob/main/{path}#L{line}`,
    // One page per entry point, members as its headings: 15 pages rather than 600 (each page
    // carries the whole sidebar), so the site builds and the browser test opens every page in CI.
    outputFileStrategy: 'modules',
    hidePageHeader: true,
    useCodeBlocks: true,
    // Markdown for VitePress: no HTML comments or `<` the Vue compiler would read as tags.
    sanitizeComments: true,
    logLevel: 'Warn',
    validation: { notExported: false, invalidLink: true, rewrittenLink: true },
  });
  const project = await app.convert();
  if (!project) throw new Error('TypeDoc could not convert the entry points (see above)');
  // Modules are named after their package and subpath, not their path in the repository.
  const bySource = new Map(entries.map((entry) => [entry.source, entry.name]));
  for (const module of project.children ?? []) {
    const file = module.sources?.[0]?.fullFileName;
    const name = file && bySource.get(file);
    if (name) module.name = name;
  }
  // Members keyed by a module-private symbol (the error brands: `[MCP_ERROR_BRAND]`) are no API a
  // user can name, and the Markdown plugin links them by an anchor their heading does not get.
  const symbolKeyed = Object.values(project.reflections).filter((reflection) => reflection.name.startsWith('['));
  for (const reflection of symbolKeyed) project.removeReflection(reflection);
  await app.generateOutputs(project);
  if (app.logger.hasErrors()) throw new Error('TypeDoc reported errors (see above)');
  repairAnchors();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(
    `API reference: ${entries.length} entry points (${entries.map((entry) => entry.name).join(', ')}) into docs/reference in ${seconds.toFixed(1)} s`,
  );
}

/** typedoc-plugin-markdown's heading ids (docs/.vitepress/markdown.mjs gives its pages the same). */
const slug = (text) =>
  text
    .toLowerCase()
    .trim()
    .replace(/[^\w\s-]/g, '')
    .replace(/[\s_-]+/g, '-')
    .replace(/^-+|-+$/g, '');

/**
 * The plugin numbers a few links to a heading as if a like-named heading came before it
 * (`#definitionkind-1` for the one `### DefinitionKind`): such a link is pointed at the one
 * heading its name has. The browser test checks every anchor of the built pages.
 */
function repairAnchors() {
  for (const entry of readdirSync(REFERENCE, { recursive: true })) {
    if (!entry.endsWith('.md')) continue;
    const path = join(REFERENCE, entry);
    const text = readFileSync(path, 'utf8');
    const ids = new Set();
    const counts = new Map();
    for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
      const base = slug(heading.replace(/[`*\\]/g, ''));
      const seen = counts.get(base) ?? 0;
      counts.set(base, seen + 1);
      ids.add(seen === 0 ? base : `${base}-${seen}`);
    }
    const repaired = text.replace(/\]\(#([\w-]+)-(\d+)\)/g, (link, base, number) =>
      ids.has(`${base}-${number}`) || counts.get(base) !== 1 ? link : `](#${base})`,
    );
    if (repaired !== text) writeFileSync(path, repaired);
  }
}

function vitepress(command) {
  const bin = join(require.resolve('vitepress/package.json', { paths: [DOCS] }), '..', 'bin', 'vitepress.js');
  if (command !== 'build') {
    const result = spawnSync(process.execPath, [bin, command, DOCS], { stdio: 'inherit' });
    process.exit(result.status ?? 1);
  }
  const result = spawnSync(process.execPath, [bin, command, DOCS], { stdio: ['inherit', 'inherit', 'pipe'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  process.stderr.write(result.stderr ?? '');
  if (result.status !== 0) process.exit(result.status ?? 1);
  // A page whose render throws (a `{{ … }}` Vue reads as an expression) is logged, not fatal, to VitePress.
  const thrown = /^\w*Error\b.*$/m.exec(result.stderr ?? '');
  if (thrown) throw new Error(`VitePress logged an error while rendering the pages: ${thrown[0]}`);
}

async function main() {
  const mode = process.argv[2] ?? '--build';
  if (mode === '--preview') return vitepress('preview');
  await buildReference();
  if (mode === '--reference-only') return;
  vitepress(mode === '--dev' ? 'dev' : 'build');
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
