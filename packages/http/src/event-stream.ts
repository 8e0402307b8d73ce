/**
 * Where a binding delivers SSE text: a Node `ServerResponse`, a `ReadableStream` controller …
 */
export interface EventSink {
  /** Writes SSE text (whole events or comments). */
  write(text: string): void;
  /** Ends the response normally. */
  end(): void;
  /** Drops the connection (a reader that does not read). */
  destroy(): void;
  /** Bytes written but not yet taken by the client. */
  readonly bufferedBytes: number;
}

/**
 * The body of a `text/event-stream` response, between the core (which writes events as they
 * happen) and a binding (which pipes them to its client). Until the binding pipes it, text waits
 * here; once piped, it passes straight through. The binding calls `close()` when its client goes
 * away (or passes `onClose` with the request, which does the same); a stream always ends.
 */
export class EventStream {
  private sink: EventSink | undefined = undefined;
  private pending: string[] | undefined = [];
  private pendingBytes = 0;
  private ended = false;
  private destroyed = false;
  private readonly closeListeners: Array<() => void> = [];

  /** True once the stream ended or its client went away. */
  get writableEnded(): boolean {
    return this.ended || this.destroyed;
  }

  /** Bytes waiting for the client: here, and in the sink. */
  get writableLength(): number {
    return this.pendingBytes + (this.sink?.bufferedBytes ?? 0);
  }

  /** Connects the client's side: what waits is written at once, the rest as it comes. Once. */
  pipe(sink: EventSink): void {
    if (this.sink !== undefined) throw new Error('EventStream: already piped');
    this.sink = sink;
    const pending = this.pending ?? [];
    this.pending = undefined;
    this.pendingBytes = 0;
    if (this.destroyed) {
      sink.destroy();
      return;
    }
    for (const text of pending) sink.write(text);
    if (this.ended) sink.end();
  }

  /** The client went away: nothing more is written, the core forgets this reader. */
  close(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.pending = undefined;
    this.pendingBytes = 0;
    for (const listener of this.closeListeners.splice(0)) listener();
  }

  /** @internal The core's side: told when the client goes. */
  onClose(listener: () => void): void {
    if (this.destroyed) listener();
    else this.closeListeners.push(listener);
  }

  /** @internal */
  write(text: string): void {
    if (this.writableEnded) return;
    if (this.sink) this.sink.write(text);
    else {
      this.pending!.push(text);
      this.pendingBytes += Buffer.byteLength(text);
    }
  }

  /** @internal */
  end(): void {
    if (this.writableEnded) return;
    this.ended = true;
    this.sink?.end();
  }

  /** @internal Drops the client's connection (it does not read). */
  destroy(): void {
    if (this.destroyed) return;
    const sink = this.sink;
    this.close();
    sink?.destroy();
  }
}
