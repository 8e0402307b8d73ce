import { join } from 'node:path';

// The era boundary (issue #12): outside the eras/ folders (core's codecs, the test client's
// dialects) and the one list of supported revisions, no source file names a protocol revision by
// date in code or an era in an identifier. `node scripts/guard/era-boundary.js` prints what leaks.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const guard = require(join(__dirname, '..', '..', '..', 'scripts', 'guard', 'era-boundary.js')) as {
  countLeaks(source: string): number;
  leaks(): Record<string, number>;
  readBaseline(): Record<string, number>;
  compare(found: Record<string, number>, baseline: Record<string, number>): { grown: string[]; shrunk: string[] };
};

describe('the era boundary', () => {
  // The baseline lists what is left today (issue #27); it may only shrink.
  const { grown, shrunk } = guard.compare(guard.leaks(), guard.readBaseline());

  it('no source file outside an eras/ folder names a revision or an era beyond the baseline', () => {
    expect(grown).toEqual([]);
  });

  it('still has every leak the baseline lists (a file that leaks less must lower its count there)', () => {
    expect(shrunk).toEqual([]);
  });

  it('counts revision dates in literals (templates too), not other dates, and era names of identifiers, not comments or imports', () => {
    expect(guard.countLeaks("const v = '2025-11-25';")).toBe(1);
    expect(guard.countLeaks('const v = `${a} since 2025-06-18`;')).toBe(1);
    expect(guard.countLeaks('const v = `${a}`; function f() { return { b: `x ${y} 2026-07-28 ${z}` }; }')).toBe(1);
    expect(guard.countLeaks('if (options.modern) run(); const isModernClient = true;')).toBe(2);
    // Every name the eras have had, in any case; the old HTTP+SSE transport is no era.
    expect(guard.countLeaks('const s = new HandshakeSession(); const l = LEGACY_ERA; scope.stateless = 1; const LEGACY_SSE_PATHS = [];')).toBe(3);
    expect(guard.countLeaks('for (const v of LEGACY_PROTOCOL_VERSIONS) views.set(v);')).toBe(1);
    expect(guard.countLeaks("const samples = ['2024-01-01T00:00:00Z', '2024-01-02'];")).toBe(0);
    expect(guard.countLeaks('// since 2025-11-25 (modern)\n/** the 2024-11-05 way */\nconst x = 1;')).toBe(0);
    expect(guard.countLeaks("import { a } from './eras/modern/a'; const version = '1.2.3'; const legacySse = true;")).toBe(0);
    // 'handshake', the legacy era's deprecated name, as a whole string; not in prose.
    expect(guard.countLeaks("if (era === 'handshake') run(); type E = 'handshake' | 'modern';")).toBe(2);
    expect(guard.countLeaks("throw new Error('belongs to a handshake-era session'); const era = 'legacy';")).toBe(0);
  });
});
