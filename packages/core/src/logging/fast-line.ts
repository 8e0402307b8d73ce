import pino from 'pino';
import { FAST_DESTINATION } from './fast-destination';
import type { LogDestination } from './log-destination';
import type { Logger } from './logger';

const { chindingsSym, mixinSym } = pino.symbols;
// Not in pino's type declarations, present at run time (a child's `msgPrefix`).
const msgPrefixSym = (pino.symbols as unknown as Record<string, symbol>).msgPrefixSym;

type Marked = Logger & { [FAST_DESTINATION]?: LogDestination; [key: symbol]: unknown };

/**
 * Logs the per-request line at info: `bindings` (the request's log fields), then `ms` and
 * `outcome`, message `request`. It is written once per call, so on a logger made by
 * `createLogger` (or a child of one, such as Fastify's `request.log`) the line is built here,
 * byte for byte what pino writes (level, time, the logger's bindings, the fields, msg), at a
 * fraction of pino's cost; any other logger, or a field that is not a plain scalar, goes through
 * `logger.info`.
 */
export function requestLine(logger: Logger, bindings: Record<string, unknown>, ms: number, outcome: string): void {
  const marked = logger as Marked;
  const destination = marked[FAST_DESTINATION];
  if (destination !== undefined && !marked[mixinSym] && !marked[msgPrefixSym]) {
    let line = `{"level":30,"time":${Date.now()}${(marked[chindingsSym] as string | undefined) ?? ''}`;
    for (const key in bindings) {
      const value = bindings[key];
      if (typeof value === 'number') line += `,"${key}":${Number.isFinite(value) ? value : 'null'}`;
      else if (typeof value === 'string' || (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function'))
        line += `,"${key}":${JSON.stringify(value)}`;
      else if (value !== undefined) {
        line = '';
        break;
      }
    }
    // Keys are mcpkit's own field names: nothing to escape.
    if (line !== '') {
      destination.write(`${line},"ms":${ms},"outcome":"${outcome}","msg":"request"}\n`);
      return;
    }
  }
  // Objects, arrays, errors, other loggers: pino's serializers and safe stringify know what to do.
  logger.info(Object.assign({}, bindings, { ms, outcome }), 'request');
}
