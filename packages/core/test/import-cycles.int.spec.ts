import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

// Plain JS so it runs without a build; see scripts/guard/README.md.
import * as graph from '../../../scripts/guard/import-graph.js';

const REPORT = 'node scripts/guard/import-graph.js';

describe('import graph of packages/*/src and apps/*/src', () => {
  const result = graph.analyse();
  const diff = graph.compare(result, graph.readBaseline());

  it('has no import cycle beyond the baseline (a new or grown cycle fails)', () => {
    const added = diff.addedCycles.map((component: string[]) => `new cycle, not inside a listed one (${REPORT} shows its edges):\n  ${component.join('\n  ')}`);
    expect(added).toEqual([]);
  });

  it('still has every cycle the baseline lists (a fixed or shrunk cycle must leave the list)', () => {
    const stale = diff.staleCycles.map(
      (component: string[]) => `listed cycle no longer exists as written; run \`${REPORT} --shrink\` and commit the baseline:\n  ${component.join('\n  ')}`,
    );
    expect(stale).toEqual([]);
  });

  it('has no upward folder edge in core beyond the baseline', () => {
    const added = diff.addedEdges.map((edge: string) => {
      const files = result.violations.find((violation: { edge: string }) => violation.edge === edge)?.files ?? [];
      return `upward edge ${edge} (a lower layer imports a higher one):\n  ${files.join('\n  ')}`;
    });
    expect(added).toEqual([]);
  });

  it('still has every upward edge the baseline lists', () => {
    expect(diff.staleEdges.map((edge: string) => `${edge} is gone; run \`${REPORT} --shrink\` and commit the baseline`)).toEqual([]);
  });

  it('knows the layer of every folder in core', () => {
    expect(result.unplaced.map((folder: string) => `${folder}: give it a place in CORE_LAYERS (scripts/guard/import-graph.js)`)).toEqual([]);
  });

  it('sees the graph it claims to: core, every adapter and every app', () => {
    for (const prefix of ['packages/core/src/', 'packages/stdio/src/', 'packages/testing/src/', 'packages/cli/src/', 'apps/testbed/src/']) {
      expect(result.graph.files.some((file: string) => file.startsWith(prefix))).toBe(true);
    }
    expect(result.graph.files.some((file: string) => file.endsWith('.spec.ts'))).toBe(false);
  });
});

describe('the import-graph tool', () => {
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'import-graph-'));
    write(
      'packages/core/package.json',
      JSON.stringify({ name: '@mcpkit/core', exports: { '.': { types: './dist/index.d.ts' }, './transport': { types: './dist/transport/entry.d.ts' } } }),
    );
    write('packages/core/src/index.ts', "export { a } from './protocol/a';\n");
    write('packages/core/src/transport/entry.ts', 'export const extra = 1;\n');
    write('packages/core/src/protocol/a.ts', "import type { B } from '../app/b';\nexport const a = 1;\nexport type A = B;\n");
    write('packages/core/src/app/b.ts', "import { a } from '../protocol/a';\nexport type B = typeof a;\n");
    write('packages/core/src/app/b.spec.ts', "import '../../index';\n");
    write('packages/adapter/package.json', JSON.stringify({ name: '@mcpkit/adapter' }));
    write(
      'packages/adapter/src/index.ts',
      "import { extra } from '@mcpkit/core/transport';\nexport const lazy = () => require('./late');\nexport { extra };\n",
    );
    write(
      'packages/adapter/src/late.ts',
      "/** Example: import { x } from './index'; */\nexport const late = import('./index');\nexport const doc = `import './nothing'`;\n",
    );
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('classifies imports: type-only, re-exports, import types, lazy require/import, and nothing from comments or strings', () => {
    const text = [
      "import type { A } from './a';",
      "import { type B, type C } from './b';",
      "import { D, type E } from './d';",
      "export type { F } from './f';",
      "export { G } from './g';",
      "type H = import('./h').H;",
      "const i = () => require('./i');",
      "const j = import('./j');",
      "/** import { k } from './k'; */",
      "const l = `import './l'`;",
    ].join('\n');
    const found = graph.importsOf('x.ts', text).map(({ spec, typeOnly }: { spec: string; typeOnly: boolean }) => `${spec}${typeOnly ? ' type' : ''}`);
    expect(found).toEqual(['./a type', './b type', './d', './f type', './g', './h type', './i', './j']);
  });

  it('finds a type-only cycle and a lazy cross-package cycle, resolving @mcpkit subpaths through exports', () => {
    const result = graph.analyse(root);
    expect(result.cycles).toEqual([
      ['packages/adapter/src/index.ts', 'packages/adapter/src/late.ts'],
      ['packages/core/src/app/b.ts', 'packages/core/src/protocol/a.ts'],
    ]);
    expect(result.graph.edges.get('packages/adapter/src/index.ts')?.map((edge: { to: string }) => edge.to)).toContain('packages/core/src/transport/entry.ts');
    expect(result.graph.files).not.toContain('packages/core/src/app/b.spec.ts');
  });

  it('reports an upward folder edge in core and a folder with no layer', () => {
    const result = graph.analyse(root);
    expect(result.violations.map((violation: { edge: string }) => violation.edge)).toEqual(['protocol -> app']);
    expect(result.violations[0].files).toEqual(['packages/core/src/protocol/a.ts:1 -> packages/core/src/app/b.ts (type)']);
    write('packages/core/src/mystery/m.ts', "import { a } from '../protocol/a';\nexport const m = a;\n");
    expect(graph.analyse(root).unplaced).toEqual(['mystery']);
  });

  it('lets the baseline only shrink: a new cycle is added, a vanished or shrunk one is stale', () => {
    const result = graph.analyse(root);
    const none = graph.compare(result, { cycles: [], layerViolations: [] });
    expect(none.addedCycles).toHaveLength(2);
    expect(none.addedEdges).toEqual(['protocol -> app']);

    const exact = graph.compare(result, { cycles: result.cycles, layerViolations: ['protocol -> app'] });
    expect([exact.addedCycles, exact.staleCycles, exact.addedEdges, exact.staleEdges]).toEqual([[], [], [], []]);

    // The adapter cycle is cut: its listing is now stale, while the core one still matches.
    write('packages/adapter/src/late.ts', 'export const late = 1;\n');
    const cut = graph.compare(graph.analyse(root), { cycles: result.cycles, layerViolations: ['protocol -> app', 'app -> eras'] });
    expect(cut.addedCycles).toEqual([]);
    expect(cut.staleCycles).toEqual([['packages/adapter/src/index.ts', 'packages/adapter/src/late.ts']]);
    expect(cut.staleEdges).toEqual(['app -> eras']);

    // A cycle that grows by one file is new: it is not inside the listed one.
    write('packages/core/src/app/c.ts', "import { a } from '../protocol/a';\nexport type C = typeof a;\n");
    write(
      'packages/core/src/protocol/a.ts',
      "import type { B } from '../app/b';\nimport type { C } from '../app/c';\nexport const a = 1;\nexport type A = B | C;\n",
    );
    const grown = graph.compare(graph.analyse(root), { cycles: result.cycles, layerViolations: ['protocol -> app'] });
    expect(grown.addedCycles).toEqual([['packages/core/src/app/b.ts', 'packages/core/src/app/c.ts', 'packages/core/src/protocol/a.ts']]);
  });

  it('prints a report naming each cycle, the edges inside it and the upward edges', () => {
    const result = graph.analyse(root);
    const text = graph.report(result, graph.compare(result, { cycles: [], layerViolations: [] }));
    expect(text).toContain('cycles (strongly connected components): 2');
    expect(text).toContain('packages/core/src/protocol/a.ts:1 -> packages/core/src/app/b.ts  (type)');
    expect(text).toContain('protocol -> app  <- NEW');
  });
});
