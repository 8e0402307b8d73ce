import pino from 'pino';

/** The server's own logger: a pino logger. */
export type Logger = pino.Logger;

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
export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    { name: options.name, level: options.level ?? process.env.LOG_LEVEL ?? 'info' },
    pino.destination({ fd: options.fd ?? 2, sync: true }),
  );
}
