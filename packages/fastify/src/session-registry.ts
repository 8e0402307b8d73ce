import { randomBytes } from 'node:crypto';
import type { Connection, Logger, McpApp } from '@mcpkit/core';
import type { EventStore } from './event-store';
import type { SessionStore } from './session-store';
import { SseStream, type SseStreamOptions } from './sse-stream';

/** The live side of a handshake-era session on this instance. */
export class LiveSession {
  lastActivity = Date.now();
  /** POSTs of this session being handled right now. */
  activeRequests = 0;
  /** Streams that may still receive events (POST streams in flight, the GET stream). */
  readonly streams = new Map<string, SseStream>();
  private streamCounter = 0;

  constructor(
    readonly id: string,
    readonly connection: Connection,
    private readonly streamOptions: Omit<SseStreamOptions, 'sessionId'>,
  ) {
    // Messages that belong to no request travel on the session's GET stream, opened lazily.
    connection.setOutbound((message) => (this.standaloneStream ?? this.openStream('g')).send(message));
  }

  /** A new stream for a POST answer (`s<n>`) or the GET stream (`g<n>`). */
  openStream(kind: 's' | 'g'): SseStream {
    this.streamCounter += 1;
    // The priming event (an id and empty data) arrived with 2025-11-25; older clients may choke on it.
    const priming = this.streamOptions.priming && this.connection.protocolVersion >= '2025-11-25';
    const stream = new SseStream(`${kind}${this.streamCounter}`, { ...this.streamOptions, priming, sessionId: this.id });
    this.streams.set(stream.id, stream);
    return stream;
  }

  /** The open GET stream, if any: a session has at most one. */
  get standaloneStream(): SseStream | undefined {
    for (const stream of this.streams.values()) if (stream.id.startsWith('g') && !stream.isComplete) return stream;
    return undefined;
  }

  /** Drops a stream that is complete and has no reader. */
  release(stream: SseStream): void {
    if (stream.isComplete) this.streams.delete(stream.id);
  }

  isBusy(): boolean {
    if (this.activeRequests > 0 || this.connection.pending > 0) return true;
    for (const stream of this.streams.values()) if (stream.isAttached) return true;
    return false;
  }

  close(): void {
    this.connection.close();
    for (const stream of this.streams.values()) stream.complete();
    this.streams.clear();
  }
}

export interface SessionRegistryOptions {
  maxSessions: number;
  idleTimeoutMs: number;
  sessionStore: SessionStore;
  eventStore: EventStore;
  stream: Omit<SseStreamOptions, 'sessionId' | 'store'>;
  logger: Logger;
}

/**
 * The sessions this instance serves. Bounded twice: idle sessions expire, and at the cap the
 * least recently used idle session makes room for a new one.
 */
export class SessionRegistry {
  private readonly live = new Map<string, LiveSession>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly app: McpApp,
    private readonly options: SessionRegistryOptions,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.max(10, Math.min(options.idleTimeoutMs / 2, 30_000)));
    this.sweeper.unref();
  }

  /** Live sessions on this instance. */
  get size(): number {
    return this.live.size;
  }

  /** A new session for an `initialize`; undefined when the cap is reached and nothing can go. */
  create(headers: Record<string, string | string[] | undefined>): LiveSession | undefined {
    if (this.live.size >= this.options.maxSessions && !this.evictOne()) return undefined;
    // 192 random bits, base64url: visible ASCII as the spec asks, unguessable.
    const id = randomBytes(24).toString('base64url');
    const connection = this.app.connect({ kind: 'http', headers }, { sessionId: id });
    const session = new LiveSession(id, connection, { ...this.options.stream, store: this.options.eventStore });
    this.live.set(id, session);
    return session;
  }

  /** Records a session once its `initialize` succeeded. */
  async activate(session: LiveSession): Promise<void> {
    await this.options.sessionStore.set({ id: session.id, client: session.connection.clientInfo, createdAt: Date.now() });
  }

  /** The session with this id: live here, or rebuilt from the store. */
  async get(id: string): Promise<LiveSession | undefined> {
    const local = this.live.get(id);
    if (local) {
      local.lastActivity = Date.now();
      return local;
    }
    const record = await this.options.sessionStore.get(id);
    if (!record) return undefined;
    if (this.live.size >= this.options.maxSessions && !this.evictOne()) return undefined;
    const connection = this.app.connect({ kind: 'http' }, { sessionId: id, initialized: record.client });
    const session = new LiveSession(id, connection, { ...this.options.stream, store: this.options.eventStore });
    this.live.set(id, session);
    return session;
  }

  /** Ends a session everywhere: live state, stored record and stored events. */
  async delete(id: string): Promise<void> {
    const session = this.live.get(id);
    this.live.delete(id);
    session?.close();
    await Promise.all([this.options.sessionStore.delete(id), this.options.eventStore.deleteSession(id)]);
  }

  /** Forgets a session that never finished its handshake. */
  discard(session: LiveSession): void {
    if (this.live.get(session.id) === session) this.live.delete(session.id);
    session.close();
  }

  /** Ends every session (shutdown). */
  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.live.keys()].map((id) => this.delete(id)));
  }

  private sweep(): void {
    const cutoff = Date.now() - this.options.idleTimeoutMs;
    for (const session of this.live.values()) {
      if (session.lastActivity < cutoff && !session.isBusy()) {
        this.options.logger.debug({ sessionId: session.id }, 'session expired');
        void this.delete(session.id).catch((error: unknown) => this.options.logger.error({ err: error }, 'failed to delete an expired session'));
      }
    }
  }

  private evictOne(): boolean {
    let oldest: LiveSession | undefined;
    for (const session of this.live.values()) {
      if (!session.isBusy() && (!oldest || session.lastActivity < oldest.lastActivity)) oldest = session;
    }
    if (!oldest) return false;
    this.options.logger.info({ sessionId: oldest.id }, 'session cap reached; ending the least recently used idle session');
    void this.delete(oldest.id).catch((error: unknown) => this.options.logger.error({ err: error }, 'failed to evict a session'));
    return true;
  }
}
