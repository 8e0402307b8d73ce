import { RequestSignal } from './request-signal';

describe('RequestSignal.onAbort', () => {
  it('tells its listeners once on cancel, without making the signal, and not those that stopped', () => {
    const aborts = new RequestSignal();
    const heard: string[] = [];
    aborts.onAbort((reason) => heard.push(`first: ${reason.message}`));
    const stop = aborts.onAbort(() => heard.push('stopped'));
    stop();
    stop();
    aborts.cancel(new Error('by the client'));
    aborts.cancel(new Error('again'));
    expect(heard).toEqual(['first: by the client']);
    // The signal made after the cancellation is aborted with the same reason.
    expect(aborts.signal.aborted).toBe(true);
    expect((aborts.signal.reason as Error).message).toBe('by the client');
  });

  it('tells a listener added after the cancellation at once', () => {
    const aborts = new RequestSignal();
    aborts.cancel(new Error('early'));
    const heard: string[] = [];
    aborts.onAbort((reason) => heard.push(reason.message))();
    expect(heard).toEqual(['early']);
  });

  it('tells its listeners when a deadline passes, as the signal aborts', async () => {
    jest.useFakeTimers();
    try {
      const aborts = new RequestSignal();
      const heard: string[] = [];
      aborts.onAbort((reason) => heard.push(reason.message));
      const { expired } = aborts.deadline(50, () => new Error('timed out'));
      jest.advanceTimersByTime(50);
      await expect(expired).rejects.toThrow('timed out');
      expect(heard).toEqual(['timed out']);
      expect(aborts.signal.aborted).toBe(true);
      aborts.onAbort((reason) => heard.push(`late: ${reason.message}`));
      expect(heard).toEqual(['timed out', 'late: timed out']);
    } finally {
      jest.useRealTimers();
    }
  });
});
