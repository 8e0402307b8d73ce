import { unrefTimer } from '@mcpkit/core/transport';
import type { Logger } from '@mcpkit/core';

/** The longest delay a Node timer keeps (a longer one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** One POST stream with no reader: its requests, and what cancels them. */
interface Detached {
  readonly requests: number;
  readonly cancel: () => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * The requests of session POST streams whose reader is gone (the client dropped the
 * connection, or SSE polling ended it) and that still run, all sessions of the endpoint
 * together. Each waits `timeoutMs` for a reader to resume its stream, then is cancelled; past
 * `max` requests waiting, the longest detached are cancelled first to make room. Without them
 * the only bound was sessions × `maxRequestsInFlight`, all held until the session expired.
 */
export class DetachedRequests {
  // Insertion order is detachment order: the first entry is the oldest.
  private readonly waiting = new Map<object, Detached>();
  private total = 0;
  // At the cap since the last eviction (its warning is logged).
  private full = false;

  constructor(
    readonly max: number,
    readonly timeoutMs: number,
    private readonly logger: Logger,
  ) {}

  /** Requests waiting for a reader now. */
  get size(): number {
    return this.total;
  }

  /**
   * `stream`'s reader went while `requests` of its requests may still run: `cancel` ends them
   * after `timeoutMs`, or at once when they are the oldest at the cap.
   */
  detach(stream: object, requests: number, cancel: () => void): void {
    if (this.waiting.has(stream)) return;
    const timer = setTimeout(
      () => {
        this.forget(stream);
        this.logger.info({ requests, timeoutMs: this.timeoutMs }, 'cancelled requests whose stream had no reader for detachedRequestTimeoutMs');
        cancel();
      },
      Math.min(this.timeoutMs, MAX_TIMER_MS),
    );
    unrefTimer(timer);
    this.waiting.set(stream, { requests, cancel, timer });
    this.total += requests;
    if (this.total <= this.max) {
      this.full = false;
      return;
    }
    if (!this.full) this.logger.warn({ limit: this.max }, 'cancelled the oldest detached requests over maxDetachedRequests');
    this.full = true;
    for (const [oldest, entry] of this.waiting) {
      if (this.total <= this.max) break;
      this.forget(oldest);
      entry.cancel();
    }
  }

  /** `stream` has a reader again, or ended: its requests wait for nothing. */
  forget(stream: object): void {
    const entry = this.waiting.get(stream);
    if (entry === undefined) return;
    clearTimeout(entry.timer);
    this.waiting.delete(stream);
    this.total -= entry.requests;
  }

  /** Shutdown: no timer outlives the endpoint (the sessions' end cancels the requests). */
  clear(): void {
    for (const entry of this.waiting.values()) clearTimeout(entry.timer);
    this.waiting.clear();
    this.total = 0;
  }
}
