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

// The line is written once per call, so what repeats from one line to the next is made once:
// its start for the current millisecond, the `,"key":"value"` text of a string field seen before
// (methods, tool names, session ids), and its end for each outcome. Each cache is bounded in
// entries and in the length of what it keeps, so a client that sends a new name every time costs
// a miss, never memory.
const CACHE_LIMIT = 512;
// Field names are the app's and mcpkit's, a handful; the bound is for the worst case (~10 MB).
const KEY_LIMIT = 64;
const MAX_CACHED_LENGTH = 128;
let startNow = -1;
let startChindings: string | undefined;
let start = '';
const keyTexts = new Map<string, string>();
/** The texts of one field's values, and how often a value was found there or not. */
interface FieldTexts {
  readonly byValue: Map<string, string>;
  hits: number;
  misses: number;
}
const fieldTexts = new Map<string, FieldTexts>();
// A field whose values hardly ever repeat (a per-request id) is not cached once this many of its
// values were missed with fewer than one hit in eight: each miss added an entry the next request
// would not read, and a Map refilled and cleared that way keeps its old tables alive through
// minor GCs (see RequestTable).
const UNIQUE_AFTER = 256;
const endTexts = new Map<string, string>();

// `ms` has three decimals at most (microseconds): its integer part, then one of these, reads
// exactly as `String(ms)` does, without formatting a double per line. Filled as met: built whole
// at load, the table cost a start-up a thousand string builds in the interpreter.
const DECIMALS: (string | undefined)[] = new Array<string | undefined>(1000).fill(undefined);

function decimals(thousandths: number): string {
  if (thousandths === 0) return '';
  const digits = thousandths < 10 ? `00${thousandths}` : thousandths < 100 ? `0${thousandths}` : `${thousandths}`;
  const end = thousandths % 100 === 0 ? 1 : thousandths % 10 === 0 ? 2 : 3;
  return `.${digits.slice(0, end)}`;
}

/** `ms` as JSON writes it, for any value of the form microseconds / 1000. */
export function msText(ms: number): string {
  const micros = Math.round(ms * 1000);
  // Beyond 2^31 µs (35 minutes) or below zero, the double's own text.
  if (!(micros >= 0 && micros < 2_147_483_648) || micros / 1000 !== ms) return Number.isFinite(ms) ? String(ms) : 'null';
  const whole = (micros / 1000) | 0;
  const thousandths = micros - whole * 1000;
  return `${whole}${(DECIMALS[thousandths] ??= decimals(thousandths))}`;
}

function keyText(key: string): string {
  let text = keyTexts.get(key);
  if (text === undefined) {
    text = `,${JSON.stringify(key)}:`;
    if (keyTexts.size < KEY_LIMIT) keyTexts.set(key, text);
  }
  return text;
}

/** `,"key":value` for a field pino writes as plain JSON; undefined for the rest. */
function fieldText(key: string, value: unknown): string | undefined {
  if (typeof value !== 'string') {
    const json = plainJson(value);
    return json === undefined ? undefined : keyText(key) + json;
  }
  // A client writes some of these (string ids): only short ones are kept, so that the cache
  // never holds more than a few hundred kB however long the ids a client sends.
  if (value.length > MAX_CACHED_LENGTH) return keyText(key) + JSON.stringify(value);
  let field = fieldTexts.get(key);
  if (field === undefined) {
    field = { byValue: new Map(), hits: 0, misses: 0 };
    if (fieldTexts.size < KEY_LIMIT) fieldTexts.set(key, field);
  }
  if (field.misses >= UNIQUE_AFTER && field.hits * 8 < field.misses) return keyText(key) + JSON.stringify(value);
  let text = field.byValue.get(value);
  if (text !== undefined) {
    field.hits++;
    return text;
  }
  field.misses++;
  const json = JSON.stringify(value);
  const prefix = keyText(key);
  text = prefix + json;
  // Kept under a copy cut from the new text, never under `value` itself: a value cut from a
  // longer string (a trace id taken from a client's `traceparent`) would keep all of that
  // string alive with it. A value that needed escaping has no such copy, and is not kept.
  if (json.length === value.length + 2) {
    if (field.byValue.size >= CACHE_LIMIT) field.byValue.clear();
    field.byValue.set(text.slice(prefix.length + 1, -1), text);
  }
  return text;
}

function endText(outcome: string, code: number | undefined): string {
  const key = code === undefined ? outcome : `${outcome}\n${code}`;
  let text = endTexts.get(key);
  if (text === undefined) {
    text = `,"outcome":${JSON.stringify(outcome)}${code === undefined ? '' : `,"code":${plainJson(code)}`},"msg":"request"}\n`;
    if (endTexts.size >= CACHE_LIMIT) endTexts.clear();
    endTexts.set(key, text);
  }
  return text;
}

/**
 * Logs the per-request line at info: `bindings` (the request's log fields), then `ms`,
 * `outcome` and, for an error answer, its JSON-RPC `code`, message `request`. It is written once
 * per call, so on a logger made by `createLogger` (or a child of one, such as Fastify's
 * `request.log`) the line is built here, byte for byte what pino writes (level, time, the
 * logger's bindings, the fields, msg), at a fraction of pino's cost; any other logger, or a
 * field that is not a plain scalar, goes through `logger.info`.
 */
export function requestLine(logger: Logger, bindings: Record<string, unknown>, ms: number, outcome: string, code?: number): void {
  const marked = logger as Marked;
  const destination = marked[FAST_DESTINATION];
  const chindings = destination === undefined ? undefined : chindingsOf(marked, bindings);
  if (destination !== undefined && chindings !== undefined) {
    const now = Date.now();
    if (now !== startNow || chindings !== startChindings) {
      startNow = now;
      startChindings = chindings;
      // JSON.stringify: a template would keep each millisecond's text in V8's number-string cache.
      start = `{"level":30,"time":${JSON.stringify(now)}${chindings}`;
    }
    let line = start;
    for (const key in bindings) {
      const value = bindings[key];
      if (value === undefined) continue;
      const text = fieldText(key, value);
      if (text === undefined) {
        line = '';
        break;
      }
      line += text;
    }
    if (line !== '') {
      destination.write(line + ',"ms":' + msText(ms) + endText(outcome, code));
      return;
    }
  }
  // Objects, arrays, errors, other loggers: pino's serializers and safe stringify know what to do.
  logger.info(Object.assign({}, bindings, code === undefined ? { ms, outcome } : { ms, outcome, code }), 'request');
}
