import type { ServerResponse } from 'node:http';
import type { JsonRpcMessage } from '@mcpkit/core';
import type { EventStore, StoredEvent } from './event-store';

/** How a stream writes: resumable (ids + store) or not, and its timings. */
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
  /** Called with any error the event store reports. */
  onStoreError?: (error: unknown) => void;
}

const MAX_BACKLOG = 1_000;

/** The SSE headers of every MCP stream. */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
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
  private writer: ServerResponse | undefined = undefined;
  private keepAlive: NodeJS.Timeout | undefined = undefined;
  private completed = false;
  // Events sent before any connection attached (a GET stream the client has not opened yet).
  private backlog: Array<{ id: string | undefined; message: JsonRpcMessage | JsonRpcMessage[] }> | undefined = [];

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
   * Attaches an HTTP response: writes the head, then the priming event (a new stream) or the
   * events it missed (a resumption). Ends it at once when the stream is already complete.
   */
  attach(response: ServerResponse, headers: Record<string, string | number | string[] | undefined>, missed?: readonly StoredEvent[]): void {
    this.detach();
    this.writer = response;
    response.writeHead(200, { ...headers, ...SSE_HEADERS });
    response.on('close', () => {
      if (this.writer === response) this.detach();
    });
    if (missed === undefined) {
      if (this.options.priming && this.options.store) {
        const id = this.nextId();
        this.store({ id, message: null });
        response.write(`id: ${id}\nretry: ${this.options.retryMs}\ndata: \n\n`);
      }
    } else {
      for (const event of missed) if (event.message !== null) response.write(frame(event.id, event.message));
    }
    if (this.backlog) {
      for (const event of this.backlog) response.write(frame(event.id, event.message));
      this.backlog = undefined;
    }
    if (this.completed) {
      this.end();
      return;
    }
    // Some clients and proxies flush nothing until the first bytes: send them now.
    if (missed === undefined && !(this.options.priming && this.options.store)) response.write(': open\n\n');
    if (this.options.keepAliveMs > 0) {
      this.keepAlive = setInterval(() => this.writer?.write(': keepalive\n\n'), this.options.keepAliveMs);
      this.keepAlive.unref();
    }
  }

  /** Sends one message (stored first when the stream is resumable). */
  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (this.completed) return;
    const id = this.options.store ? this.nextId() : undefined;
    if (id !== undefined) this.store({ id, message });
    if (this.writer) this.writer.write(frame(id, message));
    else if (this.backlog && this.backlog.length < MAX_BACKLOG) this.backlog.push({ id, message });
  }

  /** Sends the last message (the response) and ends the stream. */
  complete(message?: JsonRpcMessage | JsonRpcMessage[]): void {
    if (this.completed) return;
    if (message !== undefined) this.send(message);
    this.completed = true;
    this.end();
  }

  /** Ends the HTTP response (graceful shutdown, or a complete stream). */
  end(): void {
    const writer = this.writer;
    this.detach();
    if (writer && !writer.writableEnded) writer.end();
  }

  /** Forgets the HTTP response (its client went away); the stream lives on. */
  detach(): void {
    this.writer = undefined;
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
  }

  private nextId(): string {
    this.sequence += 1;
    return `${this.id}_${this.sequence}`;
  }

  private store(event: StoredEvent): void {
    const { store, sessionId } = this.options;
    if (!store || sessionId === undefined) return;
    try {
      const done = store.append(sessionId, this.id, event);
      if (done instanceof Promise) done.catch((error: unknown) => this.options.onStoreError?.(error));
    } catch (error) {
      this.options.onStoreError?.(error);
    }
  }
}

function frame(id: string | undefined, message: JsonRpcMessage | JsonRpcMessage[]): string {
  return id === undefined ? `event: message\ndata: ${JSON.stringify(message)}\n\n` : `id: ${id}\nevent: message\ndata: ${JSON.stringify(message)}\n\n`;
}

/** The stream id an event id names (`<stream>_<sequence>`), or undefined for a malformed id. */
export function streamOfEventId(eventId: string): string | undefined {
  const underscore = eventId.lastIndexOf('_');
  if (underscore <= 0 || !/^\d+$/.test(eventId.slice(underscore + 1))) return undefined;
  return eventId.slice(0, underscore);
}
