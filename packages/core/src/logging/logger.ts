import type pino from 'pino';
import { DeferredLogger } from './deferred-logger';
import { flushOnExit } from './exit-hooks';
import { LogDestination } from './log-destination';

/**
 * The server's own logger: what mcpkit needs of pino, so a pino logger, Fastify's
 * `request.log` or any compatible logger fits.
 */
export interface Logger {
  level: string;
  fatal: pino.LogFn;
  error: pino.LogFn;
  warn: pino.LogFn;
  info: pino.LogFn;
  debug: pino.LogFn;
  trace: pino.LogFn;
  child(bindings: Record<string, unknown>): Logger;
  isLevelEnabled?(level: string): boolean;
}

export interface LoggerOptions {
  /** pino level; defaults to `LOG_LEVEL` from the environment, then `info`. */
  level?: string;
  name?: string;
  /** File descriptor to write to; 2 (stderr) keeps stdout free for stdio protocol frames. */
  fd?: number;
  /** Write every line at once, with one system call each, instead of buffering (default false). */
  sync?: boolean;
  /** Buffered: write as soon as this many characters wait (default 16 384). */
  bufferSize?: number;
  /** Buffered: the longest a line waits before it is written, in ms (default 100). */
  flushIntervalMs?: number;
  /**
   * Buffered: the most characters held while stderr takes nothing (a pipe nobody reads); lines
   * beyond are dropped and a line says how many (default 4 MiB).
   */
  maxBufferSize?: number;
}

/**
 * Creates the default logger: pino's JSON lines on stderr at `LOG_LEVEL`. Lines are buffered and
 * written in batches (at 16 KiB or after 100 ms), which makes a line about as cheap as building
 * it; nothing is lost: the buffer is written on exit, on SIGTERM / SIGINT, after `fatal`, and on
 * a crash (an uncaught exception or unhandled rejection is logged at `fatal` first). pino itself
 * loads with the first line that needs it (request lines are built without it), which keeps it
 * out of a stdio server's cold start.
 *
 * @example
 * const app = createApp({ name: 'notes', version: '1.0.0', providers, logger: createLogger({ level: 'debug' }) });
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const destination = new LogDestination({
    fd: options.fd ?? 2,
    bufferSize: options.sync ? 0 : options.bufferSize,
    flushIntervalMs: options.flushIntervalMs,
    maxBufferSize: options.maxBufferSize,
  });
  const logger = DeferredLogger.create({ name: options.name, level: options.level ?? process.env.LOG_LEVEL ?? 'info', destination });
  flushOnExit(logger, destination);
  return logger;
}

/** Whether `level` would be written; loggers without `isLevelEnabled` are assumed to write it. */
export function isLevelEnabled(logger: Logger, level: string): boolean {
  return typeof logger.isLevelEnabled === 'function' ? logger.isLevelEnabled(level) : true;
}
