import { type JsonRpcMessage, type Logger } from '@mcpkit/core';
import { encodeMessage, unrefTimer, type EncodeLimits } from '@mcpkit/core/transport';
import type { EventStore, StoredEvent } from './event-store';
import type { EventStream } from './event-stream';

/** How a stream writes: resumable (ids + store) or not, and its timings and bounds. */
export interface SseStreamOptions {
  /** Where events wait for a resumption; without it events carry no ids. */
  store?: EventStore;
  sessionId?: string;
  /** Send the 2025-11-25 priming event (an id and empty data) first. */
  priming: boolean;
  /** The `retry` field sent with the priming event, in ms. */
  retryMs: number;
  /** Interval of `: keepalive` comments on an idle stream; 0 disables them. */
  keepAliveMs: number;
  /** Bounds of one serialised message (a bigger answer becomes a -32603 error for its id). */
  limits: EncodeLimits;
  /**
   * Most bytes a stream holds for a reader: what it buffers before its first reader attaches,
   * and what may wait unsent in a connection whose client does not read (that connection is
   * then dropped; the events stay in the store for a resumption).
   */
  maxBufferedBytes: number;
  /** Where a message that cannot be serialised is reported. */
  logger?: Logger;
  /** Called with any error the event store reports, and the stream whose event it could not keep. */
  onStoreError?: (error: unknown, streamId: string) => void;
  /** Told when a reader attaches (true) or goes (false). */
  onReader?: (attached: boolean) => void;
}

const MAX_BACKLOG = 1_000;

/** The SSE headers of every MCP stream. */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  // No `connection` header: Node keeps the connection alive for HTTP/1.1 and closes it when the
  // client asked to (`Connection: close`), which a fixed header would override.
  // Proxies such as nginx would otherwise hold events back.
  'x-accel-buffering': 'no',
});

/**
 * One SSE stream of a session: the answer to a POST, or the GET stream. It outlives its HTTP
 * connection: while detached, events only go to the store, and a GET with `Last-Event-ID` may
 * attach a new connection and receive what it missed.
 */
export class SseStream {
  private sequence = 0;
  private writer: EventStream | undefined = undefined;
  private keepAlive: NodeJS.Timeout | undefined = undefined;
  private completed = false;
  /**
   * Told once when the store could not keep one of this stream's events (after `onStoreError`):
   * a resumption would miss it, so the request the stream answers fails rather than lose it silently.
   */
  onStoreFailed: (() => void) | undefined = undefined;
  /** Told once when the stream completes: `answered` is false when it ends without a final message. */
  onComplete: ((answered: boolean) => void) | undefined = undefined;
  /**
   * Told each time a reader attaches (true) or goes (false), and last when the stream completes
   * (false, `isComplete`): a POST's requests wait for a resumption only so long.
   */
  onReaderChange: ((attached: boolean) => void) | undefined = undefined;
  // Frames sent before any connection attached (a GET stream the client has not opened yet).
  private backlog: string[] | undefined = [];
  private backlogBytes = 0;
  /**
   * The last frame waiting on an asynchronous store (a shared one): a frame goes out only once
   * the store holds its event, and in order, so a client never holds an event id that another
   * instance could not resume from.
   */
  private pending: Promise<void> | undefined = undefined;
  /** The highest sequence a resumption replayed from the store: waiting frames up to it are not sent twice. */
  private replayedThrough = 0;

  constructor(
    readonly id: string,
    private readonly options: SseStreamOptions,
  ) {}

  /** True once the final message was sent (or the stream was ended). */
  get isComplete(): boolean {
    return this.completed;
  }

  /** True while an HTTP response is attached. */
  get isAttached(): boolean {
    return this.writer !== undefined;
  }

  /**
   * Attaches a response body (its head, `SSE_HEADERS`, is the binding's to write): writes the
   * priming event (a new stream) or the events it missed (a resumption). Ends it at once when the
   * stream is already complete.
   */
  attach(response: EventStream, missed?: readonly StoredEvent[]): void {
    this.detach();
    this.writer = response;
    this.options.onReader?.(true);
    this.onReaderChange?.(true);
    response.onClose(() => {
      if (this.writer === response) this.detach();
    });
    if (missed === undefined) {
      if (this.options.priming && this.options.store) {
        const id = this.nextId();
        const text = `id: ${id}\nretry: ${this.options.retryMs}\ndata: \n\n`;
        this.deliver(text, this.sequence, this.store({ id, data: null }, text.length));
      }
    } else {
      for (const event of missed) if (event.data !== null) response.write(frame(event.id, event.data));
      this.replayedThrough = Math.max(this.replayedThrough, this.sequenceOf(missed.at(-1)?.id));
    }
    if (this.backlog) {
      for (const text of this.backlog) response.write(text);
      this.backlog = undefined;
      this.backlogBytes = 0;
    }
    if (this.completed) {
      this.end();
      return;
    }
    // Some clients and proxies flush nothing until the first bytes: send them now.
    if (missed === undefined && !(this.options.priming && this.options.store)) response.write(': open\n\n');
    if (this.options.keepAliveMs > 0) {
      this.keepAlive = unrefTimer(setInterval(() => this.write(': keepalive\n\n'), this.options.keepAliveMs));
    }
  }

  /**
   * Sends one message (stored first when the stream is resumable). Never throws: a response that
   * cannot be serialised goes out as a -32603 error for its id, a notification is dropped.
   */
  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (this.completed) return;
    const data = encodeMessage(message, this.options.limits, this.options.logger);
    if (data === undefined) return;
    const id = this.options.store ? this.nextId() : undefined;
    const text = frame(id, data);
    this.deliver(text, id === undefined ? 0 : this.sequence, id === undefined ? undefined : this.store({ id, data }, Buffer.byteLength(text)));
  }

  /** Sends the last message (the response) and ends the stream. */
  complete(message?: JsonRpcMessage | JsonRpcMessage[]): void {
    if (this.completed) return;
    if (message !== undefined) this.send(message);
    this.completed = true;
    this.onComplete?.(message !== undefined);
    const finish = (): void => {
      this.end();
      const change = this.onReaderChange;
      this.onReaderChange = undefined;
      change?.(false);
    };
    // The final frames may still wait on the store: the response ends after them.
    if (this.pending) void this.pending.then(finish);
    else finish();
  }

  /** Ends the HTTP response (graceful shutdown, or a complete stream). */
  end(): void {
    const writer = this.writer;
    this.detach();
    if (writer && !writer.writableEnded) writer.end();
  }

  /** Forgets the HTTP response (its client went away); the stream lives on. */
  detach(): void {
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
    if (this.writer === undefined) return;
    this.writer = undefined;
    this.options.onReader?.(false);
    this.onReaderChange?.(false);
  }

  private write(text: string): void {
    const writer = this.writer;
    if (writer) {
      // A reader that does not read: drop its connection rather than buffer without bound.
      if (writer.writableLength > this.options.maxBufferedBytes) {
        this.detach();
        writer.destroy();
        return;
      }
      writer.write(text);
    } else if (this.backlog && this.backlog.length < MAX_BACKLOG && this.backlogBytes + text.length <= this.options.maxBufferedBytes) {
      this.backlog.push(text);
      this.backlogBytes += text.length;
    }
  }

  /**
   * Writes `text` (frame number `sequence`, 0 for a frame without an id) once `stored` settled
   * and every frame before it went out. A synchronous store (or none) writes at once, unless
   * earlier frames still wait.
   */
  private deliver(text: string, sequence: number, stored: Promise<void> | undefined): void {
    if (stored === undefined && this.pending === undefined) {
      this.write(text);
      return;
    }
    const tail: Promise<void> = Promise.all([this.pending, stored]).then(() => {
      if (this.pending === tail) this.pending = undefined;
      if (sequence === 0 || sequence > this.replayedThrough) this.write(text);
    });
    this.pending = tail;
  }

  /** The sequence number of one of this stream's event ids (0 for another stream's or none). */
  private sequenceOf(eventId: string | undefined): number {
    if (eventId === undefined || !eventId.startsWith(`${this.id}_`)) return 0;
    const sequence = Number(eventId.slice(this.id.length + 1));
    return Number.isSafeInteger(sequence) ? sequence : 0;
  }

  private nextId(): string {
    this.sequence += 1;
    return `${this.id}_${this.sequence}`;
  }

  /** Appends one event; a promise (never rejected) when the store answers later. */
  private store(event: StoredEvent, bytes: number): Promise<void> | undefined {
    const { store, sessionId } = this.options;
    if (!store || sessionId === undefined) return undefined;
    try {
      const done = store.append(sessionId, this.id, event, bytes);
      if (done instanceof Promise) return done.catch((error: unknown) => this.storeFailed(error));
    } catch (error) {
      this.storeFailed(error);
    }
    return undefined;
  }

  private storeFailed(error: unknown): void {
    this.options.onStoreError?.(error, this.id);
    const failed = this.onStoreFailed;
    this.onStoreFailed = undefined;
    failed?.();
  }
}

/** One SSE event of already serialised JSON (which holds no newline, so one `data:` line). */
function frame(id: string | undefined, data: string): string {
  return id === undefined ? `event: message\ndata: ${data}\n\n` : `id: ${id}\nevent: message\ndata: ${data}\n\n`;
}

/**
 * The stream id an event id names (`<stream>_<sequence>`, or `<stream>_<ms>-<n>` for a log whose
 * ids a shared store mints, scale-out's GET stream), or undefined for a malformed id.
 */
export function streamOfEventId(eventId: string): string | undefined {
  const underscore = eventId.lastIndexOf('_');
  if (underscore <= 0 || !/^\d+(-\d+)?$/.test(eventId.slice(underscore + 1))) return undefined;
  return eventId.slice(0, underscore);
}
