import type pino from 'pino';
import { FAST_CHINDINGS, FAST_DESTINATION } from './fast-destination';
import { plainJson } from './plain-json';
import type { LogDestination } from './log-destination';
import type { Logger } from './logger';

type Marked = Logger & { [FAST_DESTINATION]?: LogDestination; [FAST_CHINDINGS]?: string; [key: symbol]: unknown };

// `msgPrefixSym` is not in pino's type declarations; it is there at run time (a child's prefix).
type PinoSymbols = { chindingsSym: symbol; mixinSym: symbol; msgPrefixSym: symbol; serializersSym: symbol; stringifiersSym: symbol };
let symbols: PinoSymbols | undefined;

/** pino's own symbols; asked for only of a pino logger, so pino is loaded by then. */
function pinoSymbols(): PinoSymbols {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  symbols ??= (require('pino') as typeof pino).symbols as unknown as PinoSymbols;
  return symbols;
}

/**
 * The logger's bindings text, when this line can be built here: not when a mixin, a message
 * prefix or redaction applies, or a serializer for one of the line's fields (a pino child made
 * with options, e.g. Fastify's, which adds serializers for `req`, `res` and `err`).
 */
function chindingsOf(logger: Marked, bindings: Record<string, unknown>): string | undefined {
  const own = logger[FAST_CHINDINGS];
  if (own !== undefined) return own;
  const { chindingsSym, mixinSym, msgPrefixSym, serializersSym, stringifiersSym } = pinoSymbols();
  if (logger[mixinSym] || logger[msgPrefixSym]) return undefined;
  // Serializers by field name; redaction paths live in the stringifiers, by their first segment
  // (createLogger's credential paths among them). Either touching a field of the line leaves it
  // to pino; paths that start with a wildcard reach only into objects, which the line has none of.
  for (const table of [logger[serializersSym], logger[stringifiersSym]] as Array<Record<string, unknown> | undefined>) {
    if (table === undefined) continue;
    for (const key in bindings) if (table[key] !== undefined) return undefined;
    if (table.ms !== undefined || table.outcome !== undefined || table.code !== undefined) return undefined;
  }
  return (logger[chindingsSym] as string | undefined) ?? '';
}

/**
 * Logs the per-request line at info: `bindings` (the request's log fields), then `ms`,
 * `outcome` and, for an error answer, its JSON-RPC `code`, message `request`. It is written once per call, so on a logger made by
 * `createLogger` (or a child of one, such as Fastify's `request.log`) the line is built here,
 * byte for byte what pino writes (level, time, the logger's bindings, the fields, msg), at a
 * fraction of pino's cost; any other logger, or a field that is not a plain scalar, goes through
 * `logger.info`.
 */
export function requestLine(logger: Logger, bindings: Record<string, unknown>, ms: number, outcome: string, code?: number): void {
  const marked = logger as Marked;
  const destination = marked[FAST_DESTINATION];
  const chindings = destination === undefined ? undefined : chindingsOf(marked, bindings);
  if (destination !== undefined && chindings !== undefined) {
    let line = `{"level":30,"time":${Date.now()}${chindings}`;
    for (const key in bindings) {
      const value = bindings[key];
      if (value === undefined) continue;
      const json = plainJson(value);
      if (json === undefined) {
        line = '';
        break;
      }
      line += `,"${key}":${json}`;
    }
    // Keys are mcpkit's own field names: nothing to escape.
    if (line !== '') {
      destination.write(`${line},"ms":${ms},"outcome":"${outcome}"${code === undefined ? '' : `,"code":${code}`},"msg":"request"}\n`);
      return;
    }
  }
  // Objects, arrays, errors, other loggers: pino's serializers and safe stringify know what to do.
  logger.info(Object.assign({}, bindings, code === undefined ? { ms, outcome } : { ms, outcome, code }), 'request');
}
