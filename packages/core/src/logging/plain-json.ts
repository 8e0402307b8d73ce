/**
 * A field value's JSON as pino writes it, for the values it writes as plain JSON (a string, a
 * number, a boolean, an object with `toJSON` such as an exact id); undefined for the rest, which
 * its serializers and safe stringify handle.
 */
export function plainJson(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(value);
  return undefined;
}
