import { randomBytes } from 'node:crypto';
import type { EventBus, RateLimitStore, RequestStateStore, TaskStore } from '@mcpkit/core';
import { unrefTimer } from '@mcpkit/core/transport';
import type { EventStore, SessionStore } from '@mcpkit/http';
import type { SessionRouter } from '@mcpkit/http/scale-out';
import { Keys } from './keys';
import type { RedisScaleOutOptions, ResolvedRedisOptions } from './options';
import { RedisEventBus } from './redis-event-bus';
import { RedisEventStore } from './redis-event-store';
import { RedisLink } from './redis-link';
import { RedisRateLimitStore } from './redis-rate-limit-store';
import { RedisRequestStateStore } from './redis-request-state-store';
import { RedisSessionRouter } from './redis-session-router';
import { RedisSessionStore } from './redis-session-store';
import { RedisTaskStore } from './redis-task-store';

/** What the HTTP binding takes: spread it into `serveHttp`, the Fastify plugin or `createFetchHandler`. */
export interface RedisHttpOptions {
  readonly sessionStore: SessionStore;
  readonly eventStore: EventStore;
  readonly router: SessionRouter;
}

/** Everything one instance needs to share its state with the others through one Redis. */
export interface RedisScaleOut {
  /** This instance's id among those sharing the prefix. */
  readonly instanceId: string;
  /** `createApp({ bus })`: list changes, resource updates and task states reach every instance. */
  readonly bus: EventBus;
  /** `createApp({ rateLimitStore })`: a limit holds across instances (and fails open while Redis is down). */
  readonly rateLimitStore: RateLimitStore;
  /**
   * `createApp({ requestStateStore })`: a 2026-07-28 input-required exchange completes once
   * whichever instance its rounds land on (while Redis is down, its later rounds are refused).
   */
  readonly requestStateStore: RequestStateStore;
  /** `createApp({ tasks: { store } })`: a task's state and outcome are readable on every instance. */
  readonly taskStore: TaskStore;
  /** The HTTP binding's `sessionStore`, `eventStore` and `router`. */
  readonly http: RedisHttpOptions;
  /**
   * Resolves once connected and subscribed the first time; rejects if that failed, or did not
   * happen within `startTimeoutMs` (Redis unreachable at start-up). The connections keep retrying.
   */
  ready(): Promise<void>;
  /** Closes the connections it opened (a client you passed stays open). Close the HTTP server first. */
  close(): Promise<void>;
}

const INSTANCE_ID = /^[A-Za-z0-9-]{1,64}$/;
/**
 * Scale-out on Redis: any instance serves any legacy-era session, streams resume anywhere
 * with `Last-Event-ID`, answers to server→client requests and list changes cross instances,
 * and rate limits and tasks are shared. One call per instance, same `url` and `prefix`
 * everywhere; with more than one instance also give every instance the same
 * `createApp({ requestStateSecret })`.
 *
 * While Redis is unreachable, legacy-era requests are answered `503` with `Retry-After`
 * (never `404`: clients would drop healthy sessions), every command fails within
 * `commandTimeoutMs`, and service resumes by itself when Redis is back. 2026-07-28 requests
 * need no Redis, except the cross-instance fan-out of `subscriptions/listen`.
 *
 * @example
 * const scaleOut = redisScaleOut({ url: process.env.REDIS_URL!, prefix: 'notes:' });
 * const app = createApp({ name: 'notes', version: '1.0.0', providers: [Notes], bus: scaleOut.bus,
 *   rateLimitStore: scaleOut.rateLimitStore, requestStateStore: scaleOut.requestStateStore,
 *   requestStateSecret: process.env.MCP_REQUEST_STATE_SECRET, tasks: { store: scaleOut.taskStore } });
 * await scaleOut.ready();
 * const server = await serveHttp(app, { port: 3000, ...scaleOut.http });
 * // on shutdown: await server.close(); await scaleOut.close();
 */
export function redisScaleOut(options: RedisScaleOutOptions): RedisScaleOut {
  const resolved = resolveRedisOptions(options);
  const { logger } = resolved;
  const link = new RedisLink({ url: options.url, client: options.client }, resolved.commandTimeoutMs, logger);
  const keys = new Keys(resolved.prefix);
  const onError = (error: unknown, what: string): void => logger?.warn({ err: error }, `Redis scale-out: could not ${what}`);
  // New at every start: a restart under the same instanceId is another run, whose requests are new.
  const run = `${resolved.instanceId}.${randomBytes(6).toString('hex')}`;
  const eventStore = new RedisEventStore(
    link,
    keys,
    { maxEvents: resolved.maxEventsPerStream, maxBytes: resolved.maxEventBytesPerStream, ttlMs: resolved.sessionIdleTtlMs },
    run,
  );
  const router = new RedisSessionRouter(
    resolved.instanceId,
    link,
    keys,
    eventStore,
    resolved.streamLeaseMs,
    onError,
    (sessionId, message) =>
      logger?.warn({ sessionId, rpcId: (message as { id?: unknown }).id, reason: 'waiter-gone' }, 'dropped a client answer: the request it answers is gone'),
    { pollMs: resolved.followPollMs, max: resolved.maxFollowedStreams, graceMs: resolved.writerGraceMs },
    run,
  );
  // The bus only wakes the router, which reads the broadcast log itself.
  const bus = new RedisEventBus(link, keys, resolved.instanceId, resolved.maxBroadcasts, onError, () => router.broadcastsChanged());
  const started = withStartTimeout(
    link.ready().then(() => Promise.all([bus.start(), router.listen()]).then(() => undefined)),
    resolved.startTimeoutMs,
  );
  started.catch(() => undefined);
  return {
    instanceId: resolved.instanceId,
    bus,
    rateLimitStore: new RedisRateLimitStore(link, keys, onError),
    requestStateStore: new RedisRequestStateStore(link, keys),
    taskStore: new RedisTaskStore(link, keys, { maxTasks: resolved.maxTasks, maxTasksPerOwner: resolved.maxTasksPerOwner }),
    http: Object.freeze({ sessionStore: new RedisSessionStore(link, keys, resolved.sessionIdleTtlMs, resolved.maxSessionRecordBytes), eventStore, router }),
    ready: () => started,
    close: async () => {
      await router.close();
      await link.close();
    },
  };
}

/** Applies the defaults; throws a TypeError for a bad value. */
export function resolveRedisOptions(options: RedisScaleOutOptions): ResolvedRedisOptions {
  if (options === null || typeof options !== 'object') throw new TypeError('redisScaleOut: pass { url } or { client }');
  if ((options.url === undefined) === (options.client === undefined)) throw new TypeError('redisScaleOut: give exactly one of `url` and `client`');
  const instanceId = options.instanceId ?? randomBytes(9).toString('base64url').replace(/_/g, '-');
  if (!INSTANCE_ID.test(instanceId)) throw new TypeError(`redisScaleOut: instanceId must be 1-64 letters, digits or '-' (got ${JSON.stringify(instanceId)})`);
  return {
    prefix: options.prefix ?? 'mcpkit:',
    instanceId,
    sessionIdleTtlMs: positive('sessionIdleTtlMs', options.sessionIdleTtlMs ?? 30 * 60_000),
    maxSessionRecordBytes: positive('maxSessionRecordBytes', options.maxSessionRecordBytes ?? 16 * 1024),
    maxEventsPerStream: positive('maxEventsPerStream', options.maxEventsPerStream ?? 1_000),
    maxEventBytesPerStream: positive('maxEventBytesPerStream', options.maxEventBytesPerStream ?? 4 * 1024 * 1024),
    maxBroadcasts: positive('maxBroadcasts', options.maxBroadcasts ?? 1_000),
    commandTimeoutMs: positive('commandTimeoutMs', options.commandTimeoutMs ?? 2_000),
    startTimeoutMs: positive('startTimeoutMs', options.startTimeoutMs ?? 10_000),
    streamLeaseMs: positive('streamLeaseMs', options.streamLeaseMs ?? 30_000),
    followPollMs: positive('followPollMs', options.followPollMs ?? 250),
    writerGraceMs: positive('writerGraceMs', options.writerGraceMs ?? 2_000),
    maxFollowedStreams: positive('maxFollowedStreams', options.maxFollowedStreams ?? 100),
    maxTasks: positive('maxTasks', options.maxTasks ?? 1_000),
    maxTasksPerOwner: positive('maxTasksPerOwner', options.maxTasksPerOwner ?? 100),
    logger: options.logger,
  };
}

/** `start`, or a rejection once `ms` passed without it settling (the connections retry forever on their own). */
function withStartTimeout(start: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = unrefTimer(setTimeout(() => reject(new Error(`Redis could not be reached within ${ms} ms (startTimeoutMs)`)), ms));
  });
  return Promise.race([start, expired]).finally(() => clearTimeout(timer));
}

function positive(name: string, value: number): number {
  if (!(Number.isInteger(value) && value > 0)) throw new TypeError(`redisScaleOut: ${name} must be a positive integer (got ${String(value)})`);
  return value;
}
