import { DetachedRequests } from './detached-requests';

function recorder() {
  const lines: Array<{ level: string; msg: string }> = [];
  const log = (level: string) => (_fields: unknown, msg: string) => void lines.push({ level, msg });
  const logger = { info: log('info'), warn: log('warn'), error: log('error'), debug: log('debug') } as never;
  return { lines, logger };
}

describe('DetachedRequests', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('cancels the requests of a stream without a reader after timeoutMs, unless a reader came back first', () => {
    const { lines, logger } = recorder();
    const detached = new DetachedRequests(100, 1_000, logger);
    const [left, resumed] = [{}, {}];
    const cancelled: string[] = [];
    detached.detach(left, 2, () => cancelled.push('left'));
    detached.detach(resumed, 1, () => cancelled.push('resumed'));
    detached.detach(left, 2, () => cancelled.push('again')); // already waiting: counted once
    expect(detached.size).toBe(3);
    jest.advanceTimersByTime(999);
    detached.forget(resumed);
    expect(cancelled).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(cancelled).toEqual(['left']);
    expect(detached.size).toBe(0);
    jest.advanceTimersByTime(10_000);
    expect(cancelled).toEqual(['left']);
    expect(lines).toEqual([{ level: 'info', msg: 'cancelled requests whose stream had no reader for detachedRequestTimeoutMs' }]);
  });

  it('past max cancels the longest detached first, one warn line each time the cap is reached', () => {
    const { lines, logger } = recorder();
    const detached = new DetachedRequests(3, 60_000, logger);
    const cancelled: string[] = [];
    const stream = (name: string, requests: number) => detached.detach({ name }, requests, () => cancelled.push(name));
    stream('a', 1);
    stream('b', 2);
    expect(cancelled).toEqual([]);
    stream('c', 1);
    expect(cancelled).toEqual(['a']);
    stream('d', 1);
    expect(cancelled).toEqual(['a', 'b']);
    expect(detached.size).toBe(2);
    // A batch bigger than the cap waits for nothing.
    stream('e', 4);
    expect(cancelled).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(detached.size).toBe(0);
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(1);
    stream('f', 3);
    stream('g', 1);
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(2);
    // Their timers were cleared with them: nothing more fires.
    detached.clear();
    jest.advanceTimersByTime(60_000);
    expect(cancelled).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });
});
