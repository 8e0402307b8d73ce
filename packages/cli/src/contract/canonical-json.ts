import { createHash } from 'node:crypto';

/** `value` with every object's keys in code-point order, arrays as they are, `undefined` members dropped. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : sorted(item)));
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    if (member !== undefined) copy[key] = sorted(member);
  }
  return copy;
}

/**
 * JSON with sorted keys: the same data gives the same bytes, whatever order it was built in.
 * `indent` as `JSON.stringify`'s (compact by default).
 */
export function canonicalJson(value: unknown, indent?: number): string {
  return JSON.stringify(sorted(value), null, indent);
}

/** `sha256:<hex>` of the compact canonical JSON of `value`: equal digests, equal content. */
export function contentDigest(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex')}`;
}
