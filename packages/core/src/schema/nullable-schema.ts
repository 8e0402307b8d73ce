import type { JsonSchema } from '../protocol/mcp-types';

// Keywords that hold for every value, null included: beside them, adding "null" to `type` is not
// enough (`{ $ref }` or `{ anyOf }` would still refuse null), so null becomes a choice of its own.
const APPLICATORS = ['$ref', '$dynamicRef', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'const'] as const;

// Keywords that describe a value without constraining it: they stay beside the choices.
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'deprecated', 'x-mcp-header', '$defs']);

const NULL: JsonSchema = Object.freeze({ type: 'null' });

/**
 * The schema that also takes `null` (`@Field({ nullable: true })`), as plain as it can be said:
 * `type: [T, "null"]` (with `null` in an `enum`) when only typed keywords constrain the value;
 * a `{ type: "null" }` choice appended to a lone `oneOf` or `anyOf`; otherwise the constraints move
 * into `anyOf: [{ … }, { type: "null" }]` (a `$ref` to a DTO that contains itself, a raw `allOf` …).
 * A schema that already takes null is returned as it is.
 */
export function nullableSchema(schema: JsonSchema): JsonSchema {
  const applicators = APPLICATORS.filter((key) => schema[key] !== undefined);
  if (applicators.length === 0) return withNullType(schema);
  if (schema.type === undefined && schema.enum === undefined && applicators.length === 1 && (applicators[0] === 'oneOf' || applicators[0] === 'anyOf')) {
    const key = applicators[0];
    const choices = schema[key] as JsonSchema[];
    return choices.some(isNull) ? schema : { ...schema, [key]: [...choices, NULL] };
  }
  const kept: JsonSchema = {};
  const constraints: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) (ANNOTATIONS.has(key) ? kept : constraints)[key] = value;
  return { ...kept, anyOf: [constraints, NULL] };
}

function withNullType(schema: JsonSchema): JsonSchema {
  const { type, enum: values } = schema;
  // No type and no enum: nothing refuses null already (`{}`, or only typed keywords such as minLength).
  if (type === undefined && values === undefined) return schema;
  const nullable = { ...schema };
  if (typeof type === 'string') nullable.type = [type, 'null'];
  else if (Array.isArray(type) && !type.includes('null')) nullable.type = [...(type as string[]), 'null'];
  if (Array.isArray(values) && !values.includes(null)) nullable.enum = [...values, null];
  return nullable;
}

function isNull(choice: JsonSchema): boolean {
  return choice.type === 'null' && Object.keys(choice).length === 1;
}
