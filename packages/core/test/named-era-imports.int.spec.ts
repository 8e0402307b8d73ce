// Plain JS so it runs without a build; see scripts/guard/README.md.
import * as graph from '../../../scripts/guard/import-graph.js';

// Files outside eras/ that still import a named era, each with the step of issue #27 that ends it.
// The list may only shrink: a file fixed leaves it, and no file joins it.
// Issue #27 item 2 emptied it: the session is the legacy codec's, the connection only a channel.
const KNOWN: readonly string[] = [];

describe('named era imports', () => {
  const found: string[] = graph.namedEraImports(graph.buildGraph());
  const files = [...new Set(found.map((edge) => edge.slice(0, edge.indexOf(':'))))].sort();

  it('no core file outside eras/ imports a named era (eras/<name>/…) beyond the known ones', () => {
    expect(found.filter((edge) => !KNOWN.some((file) => edge.startsWith(`${file}:`)))).toEqual([]);
  });

  it('still has every known one (a file that no longer imports a named era leaves the list)', () => {
    expect(KNOWN.filter((file) => !files.includes(file))).toEqual([]);
  });

  it('sees such an import where one is written', () => {
    const fake = {
      edges: new Map([
        ['packages/core/src/dispatcher/x.ts', [{ to: 'packages/core/src/eras/modern/meta.ts', line: 3, typeOnly: true }]],
        ['packages/core/src/dispatcher/y.ts', [{ to: 'packages/core/src/eras/era.ts', line: 1, typeOnly: true }]],
        ['packages/core/src/eras/eras.ts', [{ to: 'packages/core/src/eras/modern/codec.ts', line: 4, typeOnly: false }]],
        ['packages/core/src/transport.ts', [{ to: 'packages/core/src/eras/modern/meta.ts', line: 9, typeOnly: false }]],
      ]),
    };
    expect(graph.namedEraImports(fake)).toEqual(['packages/core/src/dispatcher/x.ts:3 -> packages/core/src/eras/modern/meta.ts']);
  });
});
