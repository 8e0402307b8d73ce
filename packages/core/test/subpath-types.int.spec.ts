import { mkdtempSync, readdirSync, readFileSync, rmSync, mkdirSync, symlinkSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';

// Every typed entry of every @mcpkit package (its `exports`) must resolve to the same .d.ts for a
// consumer of each module style: `module: commonjs` (what `mcpkit new` writes; node10 resolution
// ignores `exports`, so a subpath needs `typesVersions`), node16/nodenext, and bundler. A subpath
// that does not resolve becomes `any` under skipLibCheck, silently. Reads the built dist/.
const PACKAGES = join(__dirname, '..', '..');

interface Manifest {
  name: string;
  exports: Record<string, string | { types?: string }>;
}

const manifests: Array<{ dir: string; manifest: Manifest }> = readdirSync(PACKAGES)
  .map((name) => join(PACKAGES, name))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest }));

const entries = manifests.flatMap(({ dir, manifest }) =>
  Object.entries(manifest.exports)
    .filter((entry): entry is [string, { types: string }] => typeof entry[1] === 'object' && typeof entry[1].types === 'string')
    .map(([subpath, { types }]) => ({ specifier: manifest.name + subpath.slice(1), expected: realpathSync(join(dir, types)) })),
);

const STYLES: Array<[string, ts.CompilerOptions]> = [
  ['commonjs (node10)', { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 }],
  ['nodenext', { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext }],
  ['bundler', { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler }],
];

describe('types of every package entry, for every consumer module style', () => {
  // A consumer project outside the workspace whose node_modules holds the packages, as an install does.
  const consumer = mkdtempSync(join(tmpdir(), 'mcpkit-types-'));
  mkdirSync(join(consumer, 'node_modules', '@mcpkit'), { recursive: true });
  for (const { dir, manifest } of manifests) symlinkSync(dir, join(consumer, 'node_modules', manifest.name), 'dir');
  const from = join(consumer, 'server.ts');
  afterAll(() => rmSync(consumer, { recursive: true, force: true }));

  it('has subpath entries to check', () => {
    expect(entries.map((entry) => entry.specifier)).toEqual(
      expect.arrayContaining(['@mcpkit/core/transport', '@mcpkit/core/compile-cache', '@mcpkit/http/scale-out']),
    );
  });

  it.each(STYLES)('%s: each entry resolves to its declared .d.ts', (_style, options) => {
    const resolved = entries.map(({ specifier }) => {
      const file = ts.resolveModuleName(specifier, from, options, ts.sys).resolvedModule?.resolvedFileName;
      return { specifier, file: file === undefined ? undefined : realpathSync(file) };
    });
    expect(resolved).toEqual(entries.map(({ specifier, expected }) => ({ specifier, file: expected })));
  });
});
