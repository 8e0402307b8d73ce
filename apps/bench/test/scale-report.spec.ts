import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { goals, renderScale, type ScaleResults } from '../src/scale/scale-report';
import { withScaleSection } from '../src/scale';

const redis = (cpuUsPerCall: number) => ({ callsPerSecond: 1000, p50Ms: 1, p99Ms: 2, cpuUsPerCall, redisCpuUsPerCall: 5, redisCommandsPerCall: 7 });

function results(overrides: Partial<ScaleResults> = {}): ScaleResults {
  return {
    date: '2026-12-05T04:00:00.000Z',
    node: 'v20.20.2',
    smoke: false,
    load: { start: [1, 2, 3], end: [4, 5, 6] },
    seconds: 100,
    memory: {
      mcpkit: { '1000': { heapBytes: 3000, rssBytes: 6000 }, '10000': { heapBytes: 2900, rssBytes: 5000 } },
      sdk: { '1000': { heapBytes: 38000, rssBytes: 70000 }, '10000': { heapBytes: 37000, rssBytes: 60000 } },
      raw: { '1000': { heapBytes: 300, rssBytes: 900 }, '10000': { heapBytes: 100, rssBytes: 1000 } },
    },
    fanOut: {
      'mcpkit, GET streams': { '1000': { ms: 60, cpuMs: 30 }, '10000': { ms: 700, cpuMs: 220 } },
      'mcpkit, 2026-07-28 listens': { '1000': { ms: 80, cpuMs: 40 }, '10000': { ms: 1200, cpuMs: 270 } },
      'official SDK, GET streams': { '1000': { ms: 1300, cpuMs: 350 }, '10000': { ms: 9600, cpuMs: 2400 } },
    },
    toolsList: { mcpkit: { tools: 5007, p50Ms: 20, p99Ms: 30, tokens: 250000, bytes: 1000000 } },
    redis: { 'memory stores|16': redis(40), 'Redis stores|16': redis(90), 'memory stores|1': redis(70), 'Redis stores|1': redis(100) },
    ...overrides,
  };
}

describe('bench:scale goals', () => {
  it('judges each goal on the largest count, mcpkit alone, and names the figure', () => {
    expect(goals(results())).toEqual([
      { goal: "memory per idle session ≤ 1/10 of the SDK's (heap, 10000 sessions)", figure: '2.8 KB against 36.1 KB: 0.08×', met: true },
      { goal: 'one update to 10000 subscribers within 1 s (mcpkit, GET streams)', figure: '700 ms', met: true },
      { goal: 'one update to 10000 subscribers within 1 s (mcpkit, 2026-07-28 listens)', figure: '1200 ms', met: false },
      { goal: 'Redis-backed call ≤ 1.5× the in-memory server CPU (1 in flight)', figure: '100 µs against 70 µs: 1.43×', met: true },
      { goal: 'Redis-backed call ≤ 1.5× the in-memory server CPU (16 in flight)', figure: '90 µs against 40 µs: 2.25×', met: false },
    ]);
  });

  it('marks a missed goal in the table, and judges nothing in smoke mode', () => {
    expect(renderScale(results())).toContain("| memory per idle session ≤ 1/10 of the SDK's (heap, 10000 sessions) | 2.8 KB against 36.1 KB: 0.08× | met |");
    expect(renderScale(results())).toContain('90 µs against 40 µs: 2.25× | **missed** |');
    const smoke = renderScale(results({ smoke: true }));
    expect(smoke).toContain('smoke: tiny counts, goals not judged');
    expect(smoke).not.toMatch(/\| (met|\*\*missed\*\*) \|/);
  });

  it('shows a server it did not measure as a dash, not as a figure', () => {
    const page = renderScale(results({ memory: { mcpkit: { '1000': { heapBytes: 3072, rssBytes: 0 } } } }));
    expect(page).toContain('| 1000 | 3.0 KB | 0.0 KB | — |');
  });

  it('replaces only its own section of the page, and refuses a page without its markers', () => {
    const begin = '<!-- scale:begin (generated from benchmarks-scale.json by pnpm bench:scale; do not edit) -->';
    const page = `before\n${begin}\nold\n<!-- scale:end -->\nafter\n`;
    const written = withScaleSection(page, results());
    expect(written.startsWith(`before\n${begin}\nRun of 2026-12-05`)).toBe(true);
    expect(written.endsWith('\n<!-- scale:end -->\nafter\n')).toBe(true);
    expect(written).not.toContain('old');
    expect(() => withScaleSection('no markers', results())).toThrow('lacks the scale:begin / scale:end markers');
  });

  it('docs/benchmarks.md shows exactly the tables of the committed benchmarks-scale.json', () => {
    const docs = join(__dirname, '..', '..', '..', 'docs');
    const page = readFileSync(join(docs, 'benchmarks.md'), 'utf8');
    expect(existsSync(join(docs, 'benchmarks-scale.json'))).toBe(true);
    const committed = JSON.parse(readFileSync(join(docs, 'benchmarks-scale.json'), 'utf8')) as ScaleResults;
    expect(withScaleSection(page, committed)).toBe(page);
  });
});
