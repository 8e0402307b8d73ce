import { monotonicMs } from '../logging/monotonic-ms';
import type { JsonRpcMessage } from '../protocol/json-rpc';
import { METHOD } from '../protocol/methods';

/**
 * Default of `AnswerPacer`'s gap, in ms. 20 ms lost a last progress on a busy 2-core machine (the
 * client's process was not scheduled in time to read it alone); the wait only follows a progress.
 */
export const DEFAULT_PROGRESS_GAP_MS = 50;

/**
 * Keeps answers out of the read that carries a request's last progress notification, on a
 * transport whose messages share one byte stream (stdio, the legacy HTTP+SSE stream).
 *
 * The official TypeScript clients (`@modelcontextprotocol/sdk` v1, `@modelcontextprotocol/client`
 * v2) take every message of one read in turn, run a progress notification's handler a microtask
 * later, and drop the request's progress handler when its answer comes: a request's last progress
 * and its answer in one read lose the progress, every time. Nothing tells a server when its client
 * has read, so an answer that follows a progress notification waits until `gapMs` after it; any
 * other answer goes at once (one comparison). Answers keep their order.
 *
 * @example
 * const pacer = new AnswerPacer<string>((text) => stream.write(text));
 * pacer.sent(message); // each notification or request as it is written
 * pacer.answer(text); // each answer
 */
export class AnswerPacer<T> {
  // When the last progress notification went out (monotonic ms); undefined once its gap has passed.
  private lastProgressAt: number | undefined = undefined;
  private held: Array<{ item: T; due: number }> = [];
  private timer: NodeJS.Timeout | undefined = undefined;
  private immediate: NodeJS.Immediate | undefined = undefined;

  constructor(
    private readonly write: (item: T) => void,
    private readonly gapMs = DEFAULT_PROGRESS_GAP_MS,
  ) {}

  /** Notes a message written now: a progress notification holds the answers that follow it. */
  sent(message: JsonRpcMessage): void {
    if ((message as { method?: unknown }).method === METHOD.PROGRESS) this.lastProgressAt = monotonicMs();
  }

  /** Writes an answer now, or once `gapMs` have passed since the last progress notification. */
  answer(item: T): void {
    if (this.lastProgressAt === undefined) {
      this.write(item);
      return;
    }
    const due = this.lastProgressAt + this.gapMs;
    const now = monotonicMs();
    if (due <= now) {
      this.lastProgressAt = undefined;
      this.release(now);
      this.write(item);
      return;
    }
    this.held.push({ item, due });
    this.schedule();
  }

  /** Writes every answer held, at once (the transport is about to exit). */
  flush(): void {
    this.release(Infinity);
  }

  /** Forgets the answers held (the stream they were for is gone). */
  clear(): void {
    this.held = [];
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.immediate !== undefined) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
  }

  private schedule(): void {
    if (this.timer !== undefined || this.immediate !== undefined || this.held.length === 0) return;
    this.timer = setTimeout(this.onTimer, Math.max(0, this.held[0].due - monotonicMs()));
  }

  // Timers run before the event loop reads its sockets: an event loop that was blocked past the
  // gap would write the answer before a client in this process read the progress. An immediate
  // runs after that read.
  private readonly onTimer = (): void => {
    this.timer = undefined;
    this.immediate = setImmediate(this.onImmediate);
  };

  private readonly onImmediate = (): void => {
    this.immediate = undefined;
    this.release(monotonicMs());
  };

  /** Writes the held answers due by `now`, in order, and waits for the next one. */
  private release(now: number): void {
    let count = 0;
    while (count < this.held.length && this.held[count].due <= now) count++;
    for (const { item } of this.held.splice(0, count)) this.write(item);
    this.schedule();
  }
}
