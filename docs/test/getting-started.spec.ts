import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import * as ts from 'typescript';

// docs/getting-started.md as a newcomer copies it: its tsconfig.json is the one the README points
// to, and the project grows tests beside src/ (the page sends the reader to Testing next).
const page = readFileSync(join(__dirname, '..', 'getting-started.md'), 'utf8');
const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
const block = (text: string, lang: string) => [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1]);

/** The files tsc would compile with the page's tsconfig.json in a project holding `files` (empty). */
function compiledFiles(tsconfig: unknown, files: readonly string[]): string[] {
  const root = mkdtempSync(join(tmpdir(), 'mcpkit-getting-started-'));
  try {
    for (const file of files) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), '');
    }
    const parsed = ts.parseJsonConfigFileContent(tsconfig, ts.sys, root);
    return parsed.fileNames.map((file) => relative(root, file).split(sep).join('/')).sort();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('getting started', () => {
  const tsconfig = JSON.parse(block(page, 'json').find((text) => text.includes('compilerOptions')) ?? '{}') as { compilerOptions: Record<string, unknown> };

  it('keeps the decorator settings mcpkit reads in the tsconfig.json it shows', () => {
    expect(tsconfig.compilerOptions).toMatchObject({ experimentalDecorators: true, emitDecoratorMetadata: true, rootDir: 'src', outDir: 'dist' });
  });

  it('compiles src/ only, so tests beside it do not break tsc with "not under rootDir"', () => {
    expect(compiledFiles(tsconfig, ['src/app.ts', 'src/main.ts', 'test/app.spec.ts', 'scripts/seed.ts'])).toEqual(['src/app.ts', 'src/main.ts']);
  });

  it('has the install line of the README', () => {
    const install = (text: string) => block(text, 'bash').find((lines) => lines.startsWith('npm install @mcpkit/core'));
    expect(install(page)).toBeDefined();
    expect(install(page)).toBe(install(readme));
  });
});

describe('npx and the CLI package', () => {
  const ROOT = join(__dirname, '..', '..');
  const cli = JSON.parse(readFileSync(join(ROOT, 'packages', 'cli', 'package.json'), 'utf8')) as { name: string; bin: Record<string, string> };
  const written = [
    'README.md',
    'packages/cli/README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((file) => file.endsWith('.md'))
      .map((file) => `docs/${file}`),
  ];

  it('has one command, so that `npx @mcpkit/cli` runs it from any folder', () => {
    expect(Object.keys(cli.bin)).toEqual(['mcpkit']);
  });

  // Outside a project that installed @mcpkit/cli, npx resolves `mcpkit` to the registry's package
  // of that name, which is not this one: a page that says `npx mcpkit new` sends a newcomer there.
  it.each(written)('%s starts a project with npx @mcpkit/cli, never npx mcpkit new', (file) => {
    expect(readFileSync(join(ROOT, file), 'utf8')).not.toMatch(/npx (-y )?mcpkit new/);
  });
});
