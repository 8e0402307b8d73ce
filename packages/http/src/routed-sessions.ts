import { randomBytes } from 'node:crypto';
import { METHOD, type JsonRpcMessage, type Logger, type McpApp } from '@mcpkit/core';
import { classify, encodeMessage, primesStreams, unrefTimer, type ConnectionOptions, type EncodeLimits } from '@mcpkit/core/transport';
import type { StoredEvent } from './event-store';
import type { EventStream } from './event-stream';
import { answeredIds } from './answered-ids';
import { routedEventId } from './routed-position';
import type { ChangedList, ResumePosition, RouterAttachment, SessionRouter } from './session-router';
import type { LiveSession } from './session-registry';
import type { SessionStore } from './session-store';
import type { FollowHandle } from './stream-follower';

/** A GET stream this instance holds for a routed session. */
interface HeldStream {
  readonly session: LiveSession;
  readonly body: EventStream;
  attachment: RouterAttachment | undefined;
}

export interface RoutedSessionsOptions {
  app: McpApp;
  router: SessionRouter;
  limits: EncodeLimits;
  retryMs: number;
  keepAliveMs: number;
  maxBufferedBytes: number;
  logger: Logger;
  sessionStore: SessionStore;
  /** The live session with this id on this instance, if any. */
  lookup(sessionId: string): LiveSession | undefined;
  /** The session was deleted through another instance: end this instance's copy (and what it runs). */
  ended(sessionId: string): void;
}

/**
 * The scale-out side of the HTTP endpoint (with a `SessionRouter`): how a session's messages
 * outside a request reach the instance holding its GET stream, how that stream is served and
 * resumed here, and where the client's answers go when they land on the wrong instance. Made
 * only when a router is configured: a single instance never runs any of it.
 */
export class RoutedSessions {
  private readonly held = new Map<string, HeldStream>();
  /** How to end each POST stream followed here, by session. */
  private readonly following = new Map<string, Set<() => void>>();

  constructor(private readonly options: RoutedSessionsOptions) {
    const { router } = options;
    // Broadcasts reach the streams through the router, from the log every instance reads: not
    // from the app bus, whose events carry no position a resumption could start after.
    router.start({
      app: options.app.info.name,
      deliver: (sessionId, message) => this.deliver(sessionId, message),
      ended: (sessionId) => {
        this.endFollows(sessionId);
        options.ended(sessionId);
      },
    });
  }

  /** A new session is recorded: its stream hears the broadcasts raised from now on, also before its first GET. */
  created(sessionId: string): Promise<void> {
    return this.options.router.created(sessionId);
  }

  /**
   * What names the streams of one copy of a routed session on this instance
   * (`<instance>-<epoch>-s<n>`). Each copy counts from 1, and the same instance id comes back
   * after a restart or when a copy is rebuilt: the random epoch keeps its names new (a reused
   * name's events would be refused by the store, and a resumption would replay another request's).
   */
  streamPrefix(): string {
    return `${this.options.router.instanceId}-${epoch()}-`;
  }

  /**
   * How the registry connects a routed session `sessionId`: the ids of requests this copy sends
   * (`mcpkit.<instance>.<epoch>.<n>`) name the instance that waits, and an epoch of their own, so
   * a late answer to a request of an earlier copy never resolves one of this copy.
   */
  connectOptions(sessionId: string): ConnectionOptions {
    return {
      outboundIdPrefix: `mcpkit.${this.options.router.instanceId}.${epoch()}.`,
      appEvents: false,
      // Both answer once the store has the change, so the client's next request, wherever it
      // lands, sees it. A store that fails is logged; the change still holds here.
      onSubscription: (uri, on) =>
        this.options.router.subscribe(sessionId, uri, on).catch((error: unknown) => this.warn(error, sessionId, 'could not store a resource subscription')),
      onUnplaced: (message, routed) => this.unplaced(sessionId, message, routed),
      onLogLevel: (level) => {
        const stored = this.options.sessionStore.setLogLevel?.(sessionId, level);
        if (stored instanceof Promise) return stored.catch((error: unknown) => this.warn(error, sessionId, 'could not store the log level'));
        return undefined;
      },
    };
  }

  /** Where a routed session's messages outside a request go: its GET stream log, wherever it is read. */
  outbound(sessionId: string): (message: JsonRpcMessage) => void {
    return (message) => {
      const data = encodeMessage(message, this.options.limits, this.options.logger);
      if (data === undefined) return;
      this.options.router
        .send(sessionId, data)
        .catch((error: unknown) => this.options.logger.error({ err: error, sessionId }, 'scale-out: could not send to a session stream: the message is lost'));
    };
  }

  /**
   * Serves a GET of a routed session here: takes its stream over, replays what the client
   * missed after `position` (its `Last-Event-ID`; undefined: what was never delivered), its
   * GET log's events and the broadcasts, and then whatever comes; every event carries an id.
   * Resolves false when `position` is unknown (nothing can be replayed).
   */
  async open(session: LiveSession, body: EventStream, position: ResumePosition | undefined): Promise<boolean> {
    const { router } = this.options;
    let opened = false;
    const early: string[] = [];
    const write = (text: string): void => {
      if (!opened) {
        early.push(text);
        return;
      }
      if (body.writableEnded) return;
      // A reader that does not read: drop its connection; the events stay in the log.
      if (body.writableLength > this.options.maxBufferedBytes) {
        body.destroy();
        return;
      }
      body.write(text);
    };
    const held: HeldStream = { session, body, attachment: undefined };
    let keepAlive: NodeJS.Timeout | undefined;
    let finished = false;
    let entered = false;
    // Once, however the stream ends: its client went, another GET took it over, the session ended.
    const finish = (): void => {
      if (finished) return;
      finished = true;
      if (keepAlive) clearInterval(keepAlive);
      held.attachment?.detach();
      if (this.held.get(session.id) === held) this.held.delete(session.id);
      if (entered) session.leave();
    };
    const attachment = await router.attach(session.id, position, {
      events: (events) => {
        for (const event of events) write(`id: ${routedEventId(event.position)}\nevent: message\ndata: ${event.data}\n\n`);
      },
      evicted: () => {
        body.end();
        finish();
      },
      announces: (list) => this.announces(session, list),
    });
    if (attachment === undefined) return false;
    held.attachment = attachment;
    // Taken over already, in the moment it took to attach: the response just ends.
    if (finished) return true;
    this.held.set(session.id, held);
    session.enter();
    entered = true;
    body.onClose(finish);
    if (primesStreams(session.connection.protocolVersion)) body.write(`id: ${routedEventId(attachment.position)}\nretry: ${this.options.retryMs}\ndata: \n\n`);
    else body.write(': open\n\n');
    opened = true;
    for (const text of early.splice(0)) write(text);
    if (this.options.keepAliveMs > 0 && !finished) {
      keepAlive = setInterval(() => write(': keepalive\n\n'), this.options.keepAliveMs);
      unrefTimer(keepAlive);
    }
    return true;
  }

  /**
   * Serves a resumed POST stream (`Last-Event-ID` on `streamId`) whose request runs on another
   * instance: writes `missed` (what the store held after `lastEventId`), then the stream's later
   * events as its writer stores them, and ends right after the answer, as the writer would. If
   * the writer is gone first, the router stores and delivers the stream's fallback answer (a
   * -32603 error for the request). Resolves false when there is nothing to follow here: the
   * stream is this instance's own (no longer running), it was answered already, the router
   * cannot follow, or it follows as many streams as it may; the caller then replays and ends.
   */
  async follow(session: LiveSession, body: EventStream, streamId: string, lastEventId: string, missed: readonly StoredEvent[]): Promise<boolean> {
    const { router, maxBufferedBytes, keepAliveMs } = this.options;
    const writer = writerOf(streamId);
    if (router.follow === undefined || writer === undefined || writer === router.instanceId) return false;
    let after = lastEventId;
    for (const event of missed) {
      if (event.data !== null && answers(event.data)) return false;
      after = event.id;
    }
    let keepAlive: NodeJS.Timeout | undefined;
    let finished = false;
    let entered = false;
    const write = (text: string): void => {
      if (body.writableEnded) return;
      // A reader that does not read: drop its connection; the events stay in the store.
      if (body.writableLength > maxBufferedBytes) {
        body.destroy();
        return;
      }
      body.write(text);
    };
    // Once, however it ends: the answer came, the writer is done, the client went, the session ended.
    const finish = (): void => {
      if (finished) return;
      finished = true;
      if (keepAlive) clearInterval(keepAlive);
      handle?.stop();
      const ends = this.following.get(session.id);
      ends?.delete(finish);
      if (ends?.size === 0) this.following.delete(session.id);
      if (entered) session.leave();
      body.end();
    };
    // What the router delivers before it handed over the handle waits until `missed` is out.
    let early: StoredEvent[] | undefined = [];
    let endedEarly = false;
    const deliver = (events: readonly StoredEvent[]): void => {
      if (early) {
        early.push(...events);
        return;
      }
      for (const event of events) {
        if (finished || event.data === null) continue;
        write(`id: ${event.id}\nevent: message\ndata: ${event.data}\n\n`);
        if (answers(event.data)) finish();
      }
    };
    const end = (): void => {
      if (early) endedEarly = true;
      else finish();
    };
    // `finish` runs only after this resolves: the early path defers it, and `onClose` is set below.
    const handle: FollowHandle | undefined = await router.follow(session.id, streamId, writer, after, { events: deliver, end });
    if (handle === undefined) return false;
    session.enter();
    entered = true;
    let ends = this.following.get(session.id);
    if (!ends) this.following.set(session.id, (ends = new Set()));
    ends.add(finish);
    body.onClose(finish);
    for (const event of missed) if (event.data !== null) write(`id: ${event.id}\nevent: message\ndata: ${event.data}\n\n`);
    if (missed.length === 0) write(': open\n\n');
    const waiting = early;
    early = undefined;
    deliver(waiting);
    if (endedEarly) finish();
    if (keepAliveMs > 0 && !finished) {
      keepAlive = setInterval(() => write(': keepalive\n\n'), keepAliveMs);
      unrefTimer(keepAlive);
    }
    return true;
  }

  /** The session ended: its stream here (if any) too, and everywhere. */
  async deleted(sessionId: string): Promise<void> {
    this.held.get(sessionId)?.body.end();
    this.endFollows(sessionId);
    await this.options.router.deleteSession(sessionId);
  }

  async close(): Promise<void> {
    for (const held of [...this.held.values()]) held.body.end();
    // Ended without their answer: each client resumes on another instance.
    for (const sessionId of [...this.following.keys()]) this.endFollows(sessionId);
    await this.options.router.close();
  }

  private endFollows(sessionId: string): void {
    for (const finish of [...(this.following.get(sessionId) ?? [])]) finish();
  }

  /** A client message a session's connection here could not place. */
  private unplaced(sessionId: string, message: JsonRpcMessage, routed: boolean): void {
    const { router } = this.options;
    const id = 'id' in message ? message.id : undefined;
    if (id !== undefined && !('method' in message)) {
      // An answer to a request sent to the client: its id names the instance that waits.
      const instance = routed ? undefined : instanceOf(id);
      if (instance === undefined || instance === router.instanceId) {
        this.waiterGone(sessionId, message);
        return;
      }
      router.forward(sessionId, message, { instance }).then(
        (reached) => reached || this.waiterGone(sessionId, message),
        (error: unknown) => this.warn(error, sessionId, 'could not forward an answer'),
      );
      return;
    }
    if (routed || !('method' in message)) return;
    if (message.method === METHOD.CANCELLED) {
      router.forward(sessionId, message, 'all').catch((error: unknown) => this.warn(error, sessionId, 'could not forward a cancellation'));
    } else if (message.method === METHOD.ROOTS_LIST_CHANGED) {
      // Every instance that serves the session keeps its roots: each drops them (the hook ran here).
      router.forward(sessionId, message, 'all').catch((error: unknown) => this.warn(error, sessionId, 'could not forward a roots change'));
    } else if (message.method === METHOD.PROGRESS) {
      const instance = instanceOf((message.params as { progressToken?: unknown } | undefined)?.progressToken);
      if (instance !== undefined && instance !== router.instanceId) {
        router.forward(sessionId, message, { instance }).catch((error: unknown) => this.warn(error, sessionId, 'could not forward progress'));
      }
    }
  }

  /** A message another instance forwarded for a session of this one. */
  private deliver(sessionId: string, message: JsonRpcMessage): boolean {
    const session = this.options.lookup(sessionId);
    if (!session) return false;
    void this.options.app.dispatcher.handle(classify(message), session.connection, { routed: true });
    return true;
  }

  private waiterGone(sessionId: string, message: JsonRpcMessage): void {
    this.options.logger.warn(
      { sessionId, rpcId: (message as { id?: unknown }).id, reason: 'waiter-gone' },
      'dropped a client answer: the request it answers is gone (timed out, or its instance ended)',
    );
  }

  private announces(session: LiveSession, list: ChangedList): boolean {
    return session.connection.isInitialized && session.connection.capabilities[list]?.listChanged === true;
  }

  private warn(error: unknown, sessionId: string | undefined, message: string): void {
    this.options.logger.warn({ err: error, sessionId }, `scale-out: ${message}`);
  }
}

/** The instance that writes a routed session's POST stream (`<instance>-<epoch>-s<n>`, see `streamPrefix`), if it is one. */
export function writerOf(streamId: string): string | undefined {
  const match = /^([A-Za-z0-9-]{1,64})-[0-9a-f]{12}-s\d{1,15}$/.exec(streamId);
  return match === null ? undefined : match[1];
}

/** 48 random bits, hex: what tells one copy of a session (or one run of an instance) from another. */
function epoch(): string {
  return randomBytes(6).toString('hex');
}

/** The instance a request id minted by `mcpkit.<instance>.<epoch>.<n>` names, if it is one. */
function instanceOf(id: unknown): string | undefined {
  if (typeof id !== 'string') return undefined;
  const match = /^mcpkit\.([A-Za-z0-9-]{1,64})\.[0-9a-f]{12}\.\d+$/.exec(id);
  return match === null ? undefined : match[1];
}

/** True when an event's JSON text is a JSON-RPC response (or a batch's answer): the last event of a POST stream. */
function answers(data: string): boolean {
  return (answeredIds(data)?.ids.length ?? 0) > 0;
}
