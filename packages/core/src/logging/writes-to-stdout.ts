import type pino from 'pino';
import { FAST_DESTINATION } from './fast-destination';
import type { Logger } from './logger';

/**
 * True when `logger` writes to stdout (fd 1), which over stdio would corrupt the protocol stream:
 * a logger made by `createLogger`, or a pino logger (read through pino's own symbol).
 */
export function writesToStdout(logger: Logger): boolean {
  const fields = logger as unknown as Record<symbol, unknown>;
  let stream = fields[FAST_DESTINATION] as { fd?: unknown } | undefined;
  // A pino logger was made by pino, so asking pino for its symbols loads nothing new.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  stream ??= fields[(require('pino') as typeof pino).symbols.streamSym] as { fd?: unknown } | undefined;
  return stream === process.stdout || stream?.fd === 1 || stream?.fd === '1';
}
