import { monotonicMs } from './monotonic-ms';

describe('monotonicMs', () => {
  it('never goes back and measures a wait as performance.now() does', async () => {
    // Each monotonicMs() read is bracketed by performance.now() reads, so the comparison holds
    // however long the machine keeps this process off the CPU between two reads.
    const read = (): [number, number, number] => [performance.now(), monotonicMs(), performance.now()];
    const [startBefore, start, startAfter] = read();
    let last = start;
    for (let i = 0; i < 10_000; i++) {
      const now = monotonicMs();
      expect(now).toBeGreaterThanOrEqual(last);
      last = now;
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
    const [endBefore, end, endAfter] = read();
    expect(end - start).toBeGreaterThanOrEqual(29);
    // Same clock, same unit: within the brackets (1 ms for the two clocks' rounding).
    expect(end - start).toBeGreaterThanOrEqual(endBefore - startAfter - 1);
    expect(end - start).toBeLessThanOrEqual(endAfter - startBefore + 1);
  });
});
