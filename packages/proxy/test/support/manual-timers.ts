import type { ProxyTimers } from '../../src';

/** The proxy's reconnect timers, run by hand: a reconnect waits until the test says so; each wait asked for is recorded. */
export class ManualTimers implements ProxyTimers {
  readonly waits: number[] = [];
  readonly waiting: Array<{ callback: () => void; ms: number }> = [];
  setTimeout(callback: () => void, ms: number): unknown {
    const entry = { callback, ms };
    this.waits.push(ms);
    this.waiting.push(entry);
    return entry;
  }
  clearTimeout(handle: unknown): void {
    const at = this.waiting.indexOf(handle as never);
    if (at >= 0) this.waiting.splice(at, 1);
  }
  runNext(): void {
    this.waiting.shift()?.callback();
  }
}
