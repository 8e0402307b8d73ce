/**
 * At most `limit` calls at once; the others wait their turn, first come first served, or leave
 * the queue when their signal aborts. What bounds the memory calls to one API hold: each reads
 * up to `maxResponseBytes`, and a client may have a thousand requests in flight.
 */
export class CallSlots {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  /** Resolves once a slot is the caller's (give it back with `release`); rejects with the signal's reason when it aborts first. */
  acquire(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason as unknown);
    if (this.active < this.limit) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', leave);
        resolve();
      };
      const leave = () => {
        this.waiting.splice(this.waiting.indexOf(grant), 1);
        reject(signal.reason as unknown);
      };
      this.waiting.push(grant);
      signal.addEventListener('abort', leave, { once: true });
    });
  }

  /** Gives a slot back: to the first caller waiting, else to the pool. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active -= 1;
  }
}
