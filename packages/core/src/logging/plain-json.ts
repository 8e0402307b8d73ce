/**
 * A field value's JSON as pino writes it, for the values it writes as plain JSON (a string, a
 * number, a boolean, an object with `toJSON` such as an exact id); undefined for the rest, which
 * its serializers and safe stringify handle.
 */
export function plainJson(value: unknown): string | undefined {
  // JSON.stringify, not String(): the same text (null for NaN and ±Infinity), but String() keeps
  // each result in V8's number-to-string cache, so every request's fresh id outlived minor GCs and
  // was promoted with it: a third of a microsecond of GC per logged request.
  if (typeof value === 'number') return JSON.stringify(value);
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(value);
  return undefined;
}
