import type { JsonSchema } from '../protocol/mcp-types';

// A stable key order keeps snapshots and the published schema readable.
const KEY_ORDER = [
  'title',
  'description',
  'type',
  'enum',
  'const',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'properties',
  'required',
  'additionalProperties',
  'oneOf',
  '$ref',
  '$defs',
];

/** The schema's keywords in the published order (KEY_ORDER, then the rest as they came), without undefined ones. */
export function orderKeywords(schema: JsonSchema): JsonSchema {
  const ordered: JsonSchema = {};
  for (const key of KEY_ORDER) if (schema[key] !== undefined) ordered[key] = schema[key];
  for (const key of Object.keys(schema)) if (!(key in ordered) && schema[key] !== undefined) ordered[key] = schema[key];
  return ordered;
}
