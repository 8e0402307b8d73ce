import { createLogger, type TaskStore } from '@mcpkit/core';
import type { RedisHttpOptions } from '@mcpkit/redis';
import { notesLimits, type NotesAppOptions } from './app';

/** What the notes server shares with its other instances when it runs behind a load balancer. */
export interface NotesScaleOut {
  /**
   * For `createNotesApp`: the shared event bus, rate-limit buckets (`create_note`'s 30 a minute
   * hold across instances) and completed input-required exchanges, and the logger that also
   * reports Redis trouble.
   */
  readonly app: NotesAppOptions;
  /** Tasks in Redis: the SQLite task store fails the running tasks of whoever opens it, so it serves one instance only. */
  readonly tasks: TaskStore;
  /** For `serveHttp`: sessions, resumable streams and the router, in Redis. */
  readonly http: RedisHttpOptions;
  readonly instanceId: string;
  /** Connected and subscribed (rejects when Redis could not be reached at start-up). */
  ready(): Promise<void>;
  /** Closes the Redis connections; call it after the HTTP server closed. */
  close(): Promise<void>;
}

/**
 * Scale-out from the environment. With `REDIS_URL` set, every instance started with the same
 * `REDIS_URL` and `REDIS_PREFIX` (default `mcpkit-notes:`) serves every session; give them all
 * the same `MCP_REQUEST_STATE_SECRET` too (read by `createNotesApp`), and the same `NOTES_DB`.
 * `MCP_INSTANCE_ID` names the instance (default: random); `REDIS_START_TIMEOUT_MS` (default
 * 10 000) is how long start-up waits for Redis before the server gives up. Without `REDIS_URL`: undefined, one
 * instance keeps everything in its process, and `@mcpkit/redis` is never loaded.
 */
export function notesScaleOut(env: NodeJS.ProcessEnv = process.env): NotesScaleOut | undefined {
  const url = env.REDIS_URL;
  if (!url) return undefined;
  // Loaded only when used: a single instance does not pay for the Redis client at start-up.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { redisScaleOut } = require('@mcpkit/redis') as typeof import('@mcpkit/redis');
  const logger = createLogger();
  const scale = redisScaleOut({
    url,
    prefix: env.REDIS_PREFIX || 'mcpkit-notes:',
    instanceId: env.MCP_INSTANCE_ID || undefined,
    startTimeoutMs: env.REDIS_START_TIMEOUT_MS ? Number(env.REDIS_START_TIMEOUT_MS) : undefined,
    ...notesLimits(env).tasks,
    logger,
  });
  return {
    app: { bus: scale.bus, rateLimitStore: scale.rateLimitStore, requestStateStore: scale.requestStateStore, logger },
    tasks: scale.taskStore,
    http: scale.http,
    instanceId: scale.instanceId,
    ready: () => scale.ready(),
    close: () => scale.close(),
  };
}
