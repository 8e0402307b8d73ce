import pino from 'pino';

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
}

/**
 * Creates the default logger: JSON lines on stderr at `LOG_LEVEL`.
 *
 * @example
 * const app = createApp({ name: 'notes', version: '1.0.0', providers, logger: createLogger({ level: 'debug' }) });
 */
export function createLogger(options: LoggerOptions = {}): pino.Logger {
  return pino(
    { name: options.name, level: options.level ?? process.env.LOG_LEVEL ?? 'info' },
    pino.destination({ fd: options.fd ?? 2, sync: true }),
  );
}

/** Whether `level` would be written; loggers without `isLevelEnabled` are assumed to write it. */
export function isLevelEnabled(logger: Logger, level: string): boolean {
  return typeof logger.isLevelEnabled === 'function' ? logger.isLevelEnabled(level) : true;
}
