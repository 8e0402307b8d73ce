import type { Logger } from '@mcpkit/core';

/**
 * The part of a node-redis client (`createClient(...)` of `redis@^6`) the scale-out uses: raw
 * commands, pub/sub on a duplicate, and its lifecycle.
 */
export interface RedisClientLike {
  readonly isOpen: boolean;
  readonly isReady: boolean;
  connect(): Promise<unknown>;
  sendCommand(args: string[]): Promise<unknown>;
  duplicate(overrides?: { disableOfflineQueue?: boolean }): RedisClientLike;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  on(event: 'error' | 'ready', listener: (...args: unknown[]) => void): unknown;
  close(): Promise<unknown>;
  destroy(): unknown;
}

/**
 * Options of `redisScaleOut`. Give either `url` or `client`.
 *
 * @example
 * const scaleOut = redisScaleOut({ url: 'redis://127.0.0.1:6379', prefix: 'notes:' });
 */
export interface RedisScaleOutOptions {
  /** Redis to connect to (`redis://[user:password@]host:port[/db]`, `rediss://` for TLS). */
  url?: string;
  /**
   * A node-redis client (`createClient(...)`) to use instead of `url`, connected or not: its
   * options (TLS, auth, sentinel …) are yours. A second connection for pub/sub is made with
   * `client.duplicate()`. `close()` leaves a client you passed open. Give it
   * `disableOfflineQueue: true` and a `commandOptions.timeout`, or requests wait while Redis is down.
   */
  client?: RedisClientLike;
  /** Prefix of every key and channel (default `mcpkit:`): instances that share it share their sessions. */
  prefix?: string;
  /** This instance's id among those sharing the prefix (default: random). Letters, digits, `-`; at most 64. */
  instanceId?: string;
  /** A session nobody used this long is gone on every instance (default 1 800 000, 30 minutes); each request slides it. */
  sessionIdleTtlMs?: number;
  /**
   * Most bytes of one session's record (its JSON: client info, capabilities, version; default
   * 16 384). Every request reads it back; an `initialize` whose record would be bigger fails
   * with -32602 (HTTP 400) and makes no session.
   */
  maxSessionRecordBytes?: number;
  /** Events kept per SSE stream for resumption (default 1 000); the oldest go first. */
  maxEventsPerStream?: number;
  /** Bytes of events kept per SSE stream (default 4 MiB); the oldest go first, and a bigger event is sent but not kept. */
  maxEventBytesPerStream?: number;
  /** Broadcasts (list changes, resource updates) kept for streams that resume (default 1 000). */
  maxBroadcasts?: number;
  /**
   * Longest wait for one Redis command, in ms (default 2 000). While Redis is unreachable
   * commands fail at once (no offline queue), so a legacy-era request is answered `503`
   * quickly instead of hanging.
   */
  commandTimeoutMs?: number;
  /**
   * Longest wait for the first connection at start-up, in ms (default 10 000): past it `ready()`
   * rejects (an unreachable Redis would otherwise keep a server from ever listening, silently).
   */
  startTimeoutMs?: number;
  /** How long a GET stream's claim on its session lasts without renewal, in ms (default 30 000; renewed every third of it). */
  streamLeaseMs?: number;
  /**
   * How often a POST stream followed for a client is read, in ms (default 250): a client whose
   * POST response broke resumes it on any instance, which delivers the stream's later events as
   * the instance running the request stores them, until the answer.
   */
  followPollMs?: number;
  /**
   * How long the instance running a followed request may have no subscription on its run channel
   * before the request counts as lost and its follower answers `-32603`, in ms (default 2 000):
   * longer than a reconnect to Redis takes (about a second). A process that dies loses its
   * subscription at once; an instance that closes says so itself and is not waited for.
   */
  writerGraceMs?: number;
  /**
   * Most POST streams this instance follows at once (default 100). Past it, a resumed POST stream
   * replays what is stored and ends, and the client resumes it again later (polling).
   */
  maxFollowedStreams?: number;
  /** Most tasks the shared task store keeps at once, across instances (default 1 000). */
  maxTasks?: number;
  /** Most tasks of one owner (principal or session; the ownerless ones count as one) the shared task store keeps at once (default 100). */
  maxTasksPerOwner?: number;
  /** Where connection trouble is logged (default: silent). */
  logger?: Logger;
}

/** The options with defaults applied. */
export interface ResolvedRedisOptions {
  prefix: string;
  instanceId: string;
  sessionIdleTtlMs: number;
  maxSessionRecordBytes: number;
  maxEventsPerStream: number;
  maxEventBytesPerStream: number;
  maxBroadcasts: number;
  commandTimeoutMs: number;
  startTimeoutMs: number;
  streamLeaseMs: number;
  followPollMs: number;
  writerGraceMs: number;
  maxFollowedStreams: number;
  maxTasks: number;
  maxTasksPerOwner: number;
  logger: Logger | undefined;
}
