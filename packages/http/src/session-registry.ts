import { randomBytes } from 'node:crypto';
import { type JsonRpcMessage, type Logger, type McpApp } from '@mcpkit/core';
import { primesStreams, unrefTimer, type Connection, type ConnectionOptions } from '@mcpkit/core/transport';
import type { EventStore } from './event-store';
import type { SessionRecord, SessionStore } from './session-store';
import { SseStream, type SseStreamOptions } from './sse-stream';

type StreamOptions = Omit<SseStreamOptions, 'sessionId' | 'onReader'>;

/**
 * The live side of a legacy-era session on this instance. It is busy while one of its
 * clients is there: a POST being answered to a connected client, or a stream with a reader.
 * Nothing else holds it (work whose client left runs on without), so once its clients are gone
 * a session can always be expired or evicted.
 */
export class LiveSession {
  lastActivity = Date.now();
  /** Streams that may still receive events (POST streams in flight, the GET stream). */
  readonly streams = new Map<string, SseStream>();
  /** What each request line of this session carries besides the binding's own fields (Fastify's `reqId`): made once. */
  readonly logBindings: Readonly<Record<string, unknown>>;
  /** Who opened the session (issuer and subject), when the endpoint authenticates: nobody else may use it. */
  principal: string | undefined = undefined;
  private streamCounter = 0;
  // Routed sessions' streams are named per instance: several instances write one session's.
  private readonly streamPrefix: string = '';
  private holds = 0;
  private standalone: SseStream | undefined = undefined;

  constructor(
    readonly id: string,
    readonly connection: Connection,
    private readonly streamOptions: StreamOptions,
    private readonly onBusy: (session: LiveSession, busy: boolean) => void,
    /** Routed (scale-out): where messages outside a request go, and what names this instance's streams. */
    routed?: { outbound: (message: JsonRpcMessage) => void; streamPrefix: string },
  ) {
    this.logBindings = Object.freeze({ sessionId: id });
    if (routed) {
      this.streamPrefix = routed.streamPrefix;
      connection.setOutbound(routed.outbound);
    } else {
      // Messages that belong to no request travel on the session's GET stream, opened lazily.
      connection.setOutbound((message) => (this.standaloneStream ?? this.openStream('g')).send(message));
    }
  }

  /** A new stream for a POST answer (`s<n>`) or the GET stream (`g<n>`). */
  openStream(kind: 's' | 'g'): SseStream {
    this.streamCounter += 1;
    const priming = this.streamOptions.priming && primesStreams(this.connection.protocolVersion);
    const stream = new SseStream(`${this.streamPrefix}${kind}${this.streamCounter}`, {
      ...this.streamOptions,
      priming,
      sessionId: this.id,
      onReader: (attached) => (attached ? this.enter() : this.leave()),
    });
    this.streams.set(stream.id, stream);
    if (kind === 'g') this.standalone = stream;
    return stream;
  }

  /** The open GET stream, if any: a session has at most one. */
  get standaloneStream(): SseStream | undefined {
    return this.standalone && !this.standalone.isComplete ? this.standalone : undefined;
  }

  /** Drops a stream that is complete and has no reader. */
  release(stream: SseStream): void {
    if (stream.isComplete) this.streams.delete(stream.id);
  }

  /** A client is here (a POST arrived, a reader attached). */
  enter(): void {
    this.holds += 1;
    if (this.holds === 1) this.onBusy(this, true);
  }

  /** That client is done (its POST was answered, its reader left). */
  leave(): void {
    if (this.holds === 0) return;
    this.holds -= 1;
    this.lastActivity = Date.now();
    if (this.holds === 0) this.onBusy(this, false);
  }

  isBusy(): boolean {
    return this.holds > 0;
  }

  close(): void {
    this.connection.close();
    for (const stream of this.streams.values()) stream.complete();
    this.streams.clear();
    this.standalone = undefined;
  }
}

/** A shared session that exists, but this instance has no free slot for a copy of it right now. */
export interface AtCapacity {
  readonly full: true;
  /** Who opened it: anybody else is told it does not exist. */
  readonly principal: string | undefined;
}

/** What the registry asks of scale-out (`RoutedSessions`) for the sessions it shares with other instances. */
export interface SessionRouting {
  /** How a shared session connects (outbound ids, app events, subscriptions, unplaced messages). */
  connectOptions(sessionId: string): ConnectionOptions;
  /** Where a shared session's messages outside a request go. */
  outbound(sessionId: string): (message: JsonRpcMessage) => void;
  /** What names the streams of one copy of a shared session here: new for every copy. */
  streamPrefix(): string;
  /** A new session was recorded (its GET stream hears the broadcasts raised from now on). */
  created(sessionId: string): Promise<void>;
  /** The session ended: everywhere. */
  deleted(sessionId: string): Promise<void>;
  close(): Promise<void>;
}

export interface SessionRegistryOptions {
  maxSessions: number;
  idleTimeoutMs: number;
  sessionStore: SessionStore;
  eventStore: EventStore;
  stream: Omit<StreamOptions, 'store'>;
  logger: Logger;
  /** Scale-out: sessions shared with other instances through a router. */
  routed?: SessionRouting;
}

/**
 * The sessions this instance serves. Bounded twice: idle sessions expire, and at the cap the
 * least recently used idle session makes room for a new one. Idle sessions sit in a map ordered
 * by last use (a touch moves one to the end), so both are O(1) per session, whatever the count.
 */
export class SessionRegistry {
  private readonly live = new Map<string, LiveSession>();
  private readonly idle = new Map<string, LiveSession>();
  // Started with the first session, not when the endpoint is built: a Worker builds it at import,
  // in global scope, where Workers allow no timer.
  private sweeper: ReturnType<typeof setInterval> | undefined;
  // Read once: a shared store is asked on every request, and only this instance's copies expire here.
  private readonly shared: boolean;

  constructor(
    private readonly app: McpApp,
    private readonly options: SessionRegistryOptions,
  ) {
    this.shared = options.sessionStore.shared === true;
  }

  /** This instance's live copy of session `id`, not held (scale-out delivery). */
  peek(id: string): LiveSession | undefined {
    return this.live.get(id);
  }

  /** Live sessions on this instance. */
  get size(): number {
    return this.live.size;
  }

  /** Live sessions nobody is using right now (what the cap and the idle timeout may end). */
  get idleCount(): number {
    return this.idle.size;
  }

  /**
   * A new session for an `initialize`, held for that request (the caller leaves it once the
   * answer is out); undefined when the cap is reached and nothing can go.
   */
  create(headers: Record<string, string | string[] | undefined>, principal?: string): LiveSession | undefined {
    if (this.live.size >= this.options.maxSessions && !this.evictOne()) return undefined;
    // 192 random bits, base64url: visible ASCII as the spec asks, unguessable.
    const id = randomBytes(24).toString('base64url');
    const routed = this.options.routed;
    const connection = this.app.connect({ kind: 'http', headers }, routed ? { sessionId: id, ...routed.connectOptions(id) } : { sessionId: id });
    const session = this.add(id, connection);
    session.principal = principal;
    session.enter();
    return session;
  }

  /** True while this very session is live here. */
  has(session: LiveSession): boolean {
    return this.live.get(session.id) === session;
  }

  /** Records a session once its `initialize` succeeded. */
  async activate(session: LiveSession): Promise<void> {
    const record: SessionRecord = { id: session.id, client: session.connection.clientInfo, createdAt: Date.now() };
    if (session.principal !== undefined) record.principal = session.principal;
    await this.options.sessionStore.set(record);
    await this.options.routed?.created(session.id);
  }

  /**
   * The session `id` held for the caller when it is live here and no store is shared (a single
   * instance's every session): found without a promise. Undefined otherwise: `acquire` decides.
   */
  acquireLive(id: string): LiveSession | undefined {
    if (this.shared) return undefined;
    const local = this.live.get(id);
    local?.enter();
    return local;
  }

  /**
   * The session with this id, live here or rebuilt from the store, held for the caller (who
   * leaves it when done): held at once, so nothing can evict it before the caller uses it.
   * Undefined when no such session exists; `AtCapacity` when it exists in the shared store but
   * every slot here is busy (a 503, never a 404 that would make its client drop it).
   */
  async acquire(id: string): Promise<LiveSession | undefined | AtCapacity> {
    const local = this.live.get(id);
    if (local && !this.shared) {
      local.enter();
      return local;
    }
    // Shared: the record says whether the session still exists (another instance may have ended
    // it, or it expired), and reading it slides its lifetime. Throws when the store is unreachable.
    const record = await this.options.sessionStore.get(id);
    if (!record) {
      if (local) this.dropCopy(local);
      return undefined;
    }
    // Live here already, or rebuilt by another request while the store answered.
    const current = this.live.get(id);
    if (current) {
      // Another instance may have changed it (logging/setLevel there).
      if (record.logLevel !== undefined && current.connection.logLevel !== record.logLevel) current.connection.logLevel = record.logLevel;
      current.enter();
      return current;
    }
    // Every slot busy: the session exists (the store said so), this instance just has no room now.
    if (this.live.size >= this.options.maxSessions && !this.evictOne()) return { full: true, principal: record.principal };
    const routed = this.options.routed;
    const connection = this.app.connect(
      { kind: 'http' },
      routed
        ? { sessionId: id, restore: { client: record.client, logLevel: record.logLevel }, ...routed.connectOptions(id) }
        : { sessionId: id, restore: { client: record.client } },
    );
    const session = this.add(id, connection);
    session.principal = record.principal;
    session.enter();
    return session;
  }

  /** Ends a session everywhere: live state, stored record and stored events. */
  async delete(id: string): Promise<void> {
    const session = this.live.get(id);
    this.forget(id);
    session?.close();
    await Promise.all([this.options.sessionStore.delete(id), this.options.eventStore.deleteSession(id), this.options.routed?.deleted(id)]);
  }

  /** A shared session was deleted through another instance: its copy here ends, and its requests are cancelled. */
  endCopy(id: string): void {
    const session = this.live.get(id);
    if (session) this.dropCopy(session);
  }

  /** Forgets a session that never finished its handshake. */
  discard(session: LiveSession): void {
    if (this.live.get(session.id) === session) this.forget(session.id);
    session.close();
  }

  /** Ends every session (shutdown). */
  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    // Shared sessions outlive this instance: other instances go on serving them.
    if (this.shared) for (const session of [...this.live.values()]) this.dropCopy(session);
    else await Promise.all([...this.live.keys()].map((id) => this.delete(id)));
    await this.options.routed?.close();
  }

  /** Ends this instance's copy of a shared session; the session lives on elsewhere. */
  private dropCopy(session: LiveSession): void {
    if (this.live.get(session.id) === session) this.forget(session.id);
    session.close();
  }

  /** Ends a session that went idle or must make room: a shared one only here. */
  private retire(session: LiveSession): Promise<void> {
    if (!this.shared) return this.delete(session.id);
    this.dropCopy(session);
    return Promise.resolve();
  }

  private add(id: string, connection: Connection): LiveSession {
    const routed = this.options.routed;
    const session = new LiveSession(
      id,
      connection,
      { ...this.options.stream, store: this.options.eventStore },
      this.onBusy,
      routed ? { outbound: routed.outbound(id), streamPrefix: routed.streamPrefix() } : undefined,
    );
    this.live.set(id, session);
    this.sweeper ??= unrefTimer(setInterval(() => this.sweep(), Math.max(10, Math.min(this.options.idleTimeoutMs / 2, 30_000))));
    this.idle.set(id, session);
    return session;
  }

  private forget(id: string): void {
    this.live.delete(id);
    this.idle.delete(id);
  }

  private readonly onBusy = (session: LiveSession, busy: boolean): void => {
    if (busy) this.idle.delete(session.id);
    else if (this.live.get(session.id) === session) {
      // Re-inserted at the end: the map stays ordered by last use.
      this.idle.delete(session.id);
      this.idle.set(session.id, session);
    }
  };

  private sweep(): void {
    // Lazy both ways: a server whose sessions all ended keeps no interval (the next session starts it).
    if (this.live.size === 0) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
      return;
    }
    const cutoff = Date.now() - this.options.idleTimeoutMs;
    // Oldest first: stop at the first session used since the cutoff.
    for (const session of this.idle.values()) {
      if (session.lastActivity >= cutoff) break;
      this.options.logger.debug({ sessionId: session.id }, 'session expired');
      void this.retire(session).catch((error: unknown) => this.options.logger.error({ err: error }, 'failed to delete an expired session'));
    }
  }

  private evictOne(): boolean {
    const oldest = this.idle.values().next().value as LiveSession | undefined;
    if (!oldest) return false;
    this.options.logger.info({ sessionId: oldest.id }, 'session cap reached; ending the least recently used idle session');
    void this.retire(oldest).catch((error: unknown) => this.options.logger.error({ err: error }, 'failed to evict a session'));
    return true;
  }
}
