import type { Logger } from '../logging/logger';
import type { JsonRpcMessage, JsonRpcResponse } from '../protocol/json-rpc';
import { AnswerPacer } from './answer-pacer';
import { encodeMessage, type EncodeLimits } from './encode-message';
import { oversizedMessage } from './oversized-message';

/** What one message the channel received is answered with (nothing for a notification). */
export type ChannelAnswer = JsonRpcMessage | JsonRpcResponse[] | undefined;

/**
 * How a message channel reaches its dispatcher and its peer. `T` is what the transport receives:
 * a message's text (the default), or what it has already parsed (an HTTP body).
 */
export interface MessageChannelOptions<T = string> {
  /**
   * Runs one received message and resolves with its answer; `send` carries what the request
   * says before it (progress, log lines, requests to the client), in order; it is the same
   * function at every call, so options built around it once serve every message. With a
   * `Connection`: `(text, send) => connection.receiveText(text, { send })`.
   */
  dispatch(message: T, send: (message: JsonRpcMessage) => void): Promise<ChannelAnswer>;
  /**
   * Writes the messages due this tick, each already serialised, in order: at most once per tick.
   * Returns false when the peer does not take them as fast as they come (the channel stops
   * reading until `drained` says so).
   */
  write(messages: readonly string[]): boolean;
  /** Calls `resume` once the peer has taken what was written (after `write` returned false). */
  drained(resume: () => void): void;
  /** Stops and restarts reading input: the backpressure that keeps a slow peer from growing our buffers. */
  pauseInput(): void;
  resumeInput(): void;
  /** Bounds of one answer (and of a batch's): a bigger one goes out as a -32603 error for its id. */
  limits: EncodeLimits;
  /**
   * Largest received message text in UTF-8 bytes, for a transport whose frames carry whole
   * messages (a WebSocket): a bigger one is answered -32600 and not run. Omit it when the framing
   * already bounds messages (stdio's line reader, an HTTP body limit).
   */
  maxMessageBytes?: number;
  /** Where an answer that cannot be serialised is reported. */
  logger?: Logger;
  /** Told after each message is received and after each is answered (a transport reporting session changes). */
  onActivity?(): void;
}

/**
 * One peer's message stream, whatever carries it (stdio lines, a WebSocket, …): bounds what it
 * receives, runs each message through the dispatcher, writes what is due once per tick, stops
 * reading while the peer does not keep up, keeps a request's last progress notification out of
 * the read that carries its answer (`AnswerPacer`), and tells when nothing is in flight.
 * The transport keeps only its framing and its lifetime.
 *
 * @example
 * const connection = app.connect({ kind: 'websocket' });
 * const channel = new MessageChannel({
 *   dispatch: (text, send) => {
 *     const read = readBody(text);
 *     return read.ok ? app.dispatcher.handle(read.body, connection, { send }) : Promise.resolve(read.response);
 *   },
 *   write: (texts) => (texts.forEach((text) => socket.send(text)), socket.bufferedAmount < 1 << 20),
 *   drained: (resume) => setTimeout(resume, 10),
 *   pauseInput: () => socket.pause(),
 *   resumeInput: () => socket.resume(),
 *   limits: { maxMessageBytes: 1 << 26, maxBatchBytes: 1 << 26 },
 *   maxMessageBytes: 1 << 22,
 * });
 * connection.setOutbound((message) => channel.send(message));
 * socket.on('message', (data) => channel.receive(data.toString()));
 */
export class MessageChannel<T = string> {
  private queued: string[] = [];
  private readonly pacer = new AnswerPacer<string>((text) => this.enqueue(text));
  private inFlight = 0;
  private closed = false;
  private paused = false;
  private idleWaiters: Array<() => void> = [];
  // Made once, not per message or per tick: the hot path allocates no closure of its own.
  private readonly say = (message: JsonRpcMessage): void => this.send(message);
  private readonly writeDue = (): void => this.write();

  constructor(private readonly options: MessageChannelOptions<T>) {}

  /** How many received requests have not been answered yet. */
  get pending(): number {
    return this.inFlight;
  }

  /** Runs one received message (already framed: one line, one WebSocket message, one POST body …). */
  receive(message: T): void {
    const max = this.options.maxMessageBytes;
    if (max !== undefined && typeof message === 'string' && message.length > max / 3 && Buffer.byteLength(message) > max) {
      this.refuseOversized(max);
      return;
    }
    this.inFlight += 1;
    let answered: Promise<ChannelAnswer>;
    try {
      answered = this.options.dispatch(message, this.say);
    } catch (error) {
      this.failed(error);
      return;
    }
    this.options.onActivity?.();
    void answered.then(
      (answer) => this.answered(answer),
      (error: unknown) => this.failed(error),
    );
  }

  /** Answers a frame over the transport's size limit (-32600, id null): nothing of it was read. */
  refuseOversized(maxBytes: number): void {
    this.send(oversizedMessage(maxBytes));
  }

  /**
   * Sends a message of the server's own (a notification, a request to the client) or an answer.
   * Never throws: an answer that cannot be serialised goes out as a -32603 error for its id.
   */
  send(message: ChannelAnswer): void {
    if (message === undefined || this.closed) return;
    const text = encodeMessage(message, this.options.limits, this.options.logger);
    if (text === undefined) return;
    if (Array.isArray(message) || !('method' in message)) this.pacer.answer(text);
    else {
      this.pacer.sent(message);
      this.enqueue(text);
    }
  }

  /** Resolves once no received request is in flight (at once when none is). */
  idle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Writes everything waiting now, answers held for pacing too (the process is about to exit). */
  flush(): void {
    this.pacer.flush();
    this.write();
  }

  /** Writes nothing more; answers still to come are dropped. */
  close(): void {
    this.closed = true;
    this.pacer.clear();
    this.queued = [];
  }

  private enqueue(text: string): void {
    if (this.closed) return;
    if (this.queued.length === 0) process.nextTick(this.writeDue);
    this.queued.push(text);
  }

  private write(): void {
    if (this.queued.length === 0) return;
    const texts = this.queued;
    this.queued = [];
    if (this.options.write(texts) || this.paused) return;
    this.paused = true;
    this.options.pauseInput();
    this.options.drained(() => {
      this.paused = false;
      if (!this.closed) this.options.resumeInput();
    });
  }

  private answered(answer: ChannelAnswer): void {
    try {
      this.send(answer);
    } finally {
      this.settle();
    }
  }

  private failed(error: unknown): void {
    this.options.logger?.error({ err: error }, 'unexpected dispatcher failure');
    this.settle();
  }

  private settle(): void {
    this.inFlight -= 1;
    this.options.onActivity?.();
    if (this.inFlight > 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
