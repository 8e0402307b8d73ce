import type { JsonRpcMessage } from '@mcpkit/core';
import type { FollowHandle, StreamFollower } from './stream-follower';

/** A list whose `list_changed` may be broadcast. */
export type ChangedList = 'tools' | 'resources' | 'prompts';

/**
 * Where the reader of a routed GET stream is, in the two logs it merges: the session's own GET
 * log, and the broadcast log every session shares (list changes, resource updates). The SSE id
 * of each event carries both (`g_<log>_<broadcasts>`), so a resumption on any instance starts
 * after exactly what the client saw of each.
 */
export interface RouterPosition {
  /** After this entry of the session's GET log (`0-0`: its start). */
  readonly log: string;
  /** After this entry of the broadcast log (`0-0`: its start). */
  readonly broadcasts: string;
}

/**
 * Where a GET with `Last-Event-ID` resumes: `broadcasts` is absent in an id of a version that
 * carried only the log's position (`g_<log>`), which the router then reads as a point of the
 * same clock, as those versions did.
 */
export interface ResumePosition {
  readonly log: string;
  readonly broadcasts?: string;
}

/** One event of a session's shared GET stream: its position (the SSE id's tail) and its JSON text. */
export interface RoutedEvent {
  /** The position after this event: a resumption from it replays what came after. */
  readonly position: RouterPosition;
  readonly data: string;
}

/** Where a router delivers the events of a GET stream this instance holds. */
export interface RouterReader {
  /** Events of the stream, in order, each once. */
  events(events: readonly RoutedEvent[]): void;
  /** Another instance took the stream over (a newer GET), or the session ended: end this connection. */
  evicted(): void;
  /** Whether the session hears `list_changed` of `list` (its server announces it): broadcasts of other lists are passed over. */
  announces(list: ChangedList): boolean;
}

/** A GET stream held by this instance. */
export interface RouterAttachment {
  /** The position the reader starts after (the priming event's id tail). */
  readonly position: RouterPosition;
  /** Lets go of the stream (the connection closed). */
  detach(): void;
}

/** What a router hands to the instance it runs on. */
export interface RouterHandlers {
  /**
   * The name of the app this instance serves (`createApp({ name })`): a router on shared state
   * can check that the state it was configured for is not another app's.
   */
  readonly app?: string;
  /**
   * A client message that reached another instance but belongs here: the answer (or progress)
   * to a request this instance sent, or a cancellation of a request that may run here.
   * Returns false when nothing here wanted it (the waiter is gone).
   */
  deliver(sessionId: string, message: JsonRpcMessage): boolean;
  /**
   * The session was deleted on another instance: drop its copy here and cancel what it runs,
   * as a DELETE on this instance would. Optional for routers made before it.
   */
  ended?(sessionId: string): void;
}

/** Who a client message that an instance could not place is for. */
export type ForwardTarget =
  /** The instance that sent the request being answered (its id names it). */
  | { instance: string }
  /** Every instance (a cancellation: the request may run anywhere). */
  | 'all';

/**
 * Carries server→client messages and the client's answers between the instances that serve one
 * legacy-era session (scale-out). Without one (the default) an HTTP endpoint keeps all of a
 * session in its own process, as a single instance does. With one:
 *
 * - messages that belong to no request (list changes, requests and logs outside a POST) are
 *   appended to the session's GET stream log (`send`) and reach the instance holding that stream,
 *   which may be another one; a GET with `Last-Event-ID` resumes that log on any instance;
 * - answers to server→client requests, and cancellations, that land on the wrong instance are
 *   forwarded to the right one (`forward`);
 * - broadcasts (list changes, resource updates) are kept in one log every instance reads once
 *   and fans out to the GET streams it holds, each stream from its own position, filtered
 *   (the lists a session announces, the resources it subscribed to), so a stream resumed
 *   anywhere gets each broadcast it missed exactly once, also one raised while it was closed.
 *
 * `@mcpkit/redis` implements it on Redis; `MemorySessionRouter` (packages/http/test/support) is the in-process reference the
 * contract tests hold every implementation to.
 *
 * @example
 * const scaleOut = redisScaleOut({ url: process.env.REDIS_URL });
 * await serveHttp(app, { ...scaleOut.http }); // sessionStore, eventStore and router
 */
export interface SessionRouter {
  /** This instance's id: unique among the instances sharing the router (it names the ids of requests sent from here). */
  readonly instanceId: string;
  /** Called once by the endpoint that uses the router, before anything else. */
  start(handlers: RouterHandlers): void;
  /** Appends one message (its JSON text) to the session's GET stream log and wakes the instance that reads it. Resolves once stored. */
  send(sessionId: string, data: string): Promise<void>;
  /**
   * A new session was recorded (after the store has it): its GET stream starts after the
   * broadcast log's tail as it is now, so it hears every broadcast raised from now on, also
   * before its first GET, and none from before it existed.
   */
  created(sessionId: string): Promise<void>;
  /**
   * Reads the session's GET stream on this instance from now on, taking it over from any other
   * (last GET wins): its GET log, and the broadcasts meant for it. `after` is where the client
   * last was (its `Last-Event-ID`); undefined starts after what was already delivered to some
   * reader (the session's stored cursors). Resolves to the handle, or undefined when `after` is
   * no position of these logs (trimmed, never there, ahead of the log).
   */
  attach(sessionId: string, after: ResumePosition | undefined, reader: RouterReader): Promise<RouterAttachment | undefined>;
  /** Passes a client message to the instance(s) that can place it; resolves to false when nobody can (the waiter's instance is gone). */
  forward(sessionId: string, message: JsonRpcMessage, target: ForwardTarget): Promise<boolean>;
  /** `resources/subscribe` (on) and `resources/unsubscribe` (off) of a session. */
  subscribe(sessionId: string, uri: string, on: boolean): Promise<void>;
  /** Which of `sessionIds` are subscribed to `uri`, in order. */
  subscribed(sessionIds: readonly string[], uri: string): Promise<boolean[]>;
  /** Forgets a session's log, subscriptions and stream owner, evicts its reader wherever it is, and tells every other instance (`ended`). */
  deleteSession(sessionId: string): Promise<void>;
  /** Stops delivering to this instance. */
  close(): Promise<void>;
  /**
   * Follows POST stream `streamId` of a session, which instance `writer` writes (its request runs
   * there), from after event `afterEventId`: its later events go to `follower` as they are
   * stored. When the writer is gone before the answer, the stream's fallback (see
   * `EventStore.keepFallback`) is stored and delivered as its last event. Resolves to undefined
   * when this instance follows as many streams as it may (the client then resumes by polling).
   * Optional: without it a resumed POST stream replays what is stored and ends.
   */
  follow?(sessionId: string, streamId: string, writer: string, afterEventId: string, follower: StreamFollower): Promise<FollowHandle | undefined>;
}
