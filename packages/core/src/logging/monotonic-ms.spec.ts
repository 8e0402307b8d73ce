import { monotonicMs } from './monotonic-ms';

describe('monotonicMs', () => {
  it('never goes back and measures a wait as performance.now() does', async () => {
    const [startMs, startPerf] = [monotonicMs(), performance.now()];
    let last = startMs;
    for (let i = 0; i < 10_000; i++) {
      const now = monotonicMs();
      expect(now).toBeGreaterThanOrEqual(last);
      last = now;
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
    const [waited, perfWaited] = [monotonicMs() - startMs, performance.now() - startPerf];
    expect(waited).toBeGreaterThanOrEqual(29);
    expect(Math.abs(waited - perfWaited)).toBeLessThan(5);
  });
});
