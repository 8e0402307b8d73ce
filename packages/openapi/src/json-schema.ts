import { formatNames } from 'ajv-formats/dist/formats';
import type { JsonSchema } from '@mcpkit/core';
import { setOwn } from './own';

/**
 * Formats ajv-formats knows (core validates with ajv and ajv-formats): any other
 * format in a document (`uuid4`, vendor ones) is an annotation ajv would warn about, so it is
 * dropped rather than published.
 */
const KNOWN_FORMATS: ReadonlySet<string> = new Set(formatNames);

/** OpenAPI keywords that are no JSON Schema 2020-12 keyword (`nullable` is read before it is dropped, `example` becomes `examples`). */
const OPENAPI_ONLY: ReadonlySet<string> = new Set(['nullable', 'discriminator', 'xml', 'externalDocs', 'example']);
/** Identifiers and references into the document: the dereferenced schema is published alone, where they would point nowhere. */
const REFERENCES: ReadonlySet<string> = new Set(['$ref', '$schema', '$id', '$anchor', '$dynamicAnchor', '$dynamicRef']);

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_SINGLES = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An OpenAPI schema object, dereferenced, as the JSON Schema 2020-12 that core publishes and
 * validates with. 3.0's dialect is translated (`nullable`, boolean `exclusiveMinimum`, `example`
 * → `examples`); 3.1's is JSON Schema already and keeps its keywords. Extensions (`x-…`) are
 * dropped: one of them, `x-mcp-header`, means something to MCP. A schema that refers to itself
 * (a tree) is cut where it recurs: the recurrence accepts any value, since a published tool
 * schema must be a finite tree without `$ref`s into the document.
 */
export function toJsonSchema(schema: unknown, openapi30: boolean): JsonSchema {
  return convert(schema, openapi30, { path: new Set(), left: MAX_SCHEMA_NODES }) as JsonSchema;
}

/**
 * The most objects and arrays one published schema may hold, its values (`examples`, `default`,
 * `enum`) included. `$ref`s share a node, the tree published repeats it: 20 schemas each naming
 * the next twice are a million copies (a document can do this by accident or on purpose, as
 * YAML aliases can, and a `$ref` inside an example is resolved too), which no model reads and
 * no start-up or `tools/list` survives.
 */
export const MAX_SCHEMA_NODES = 10_000;

const TOO_LARGE = `a schema expands to more than ${MAX_SCHEMA_NODES} objects once its $refs are written out (shared or recursive $refs)`;

/** Counts a value's objects and arrays against the budget: a shared or cyclic value counts each time it is written. */
function countValue(value: unknown, walk: Walk): void {
  // A stack, not recursion: a value 10 000 deep (a cycle is) must reach the bound, not the call stack's.
  const pending = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next !== 'object' || next === null) continue;
    if (--walk.left < 0) throw new Error(TOO_LARGE);
    for (const item of Array.isArray(next) ? next : Object.values(next)) pending.push(item);
  }
}

/** The schemas on the way from the root (a recurrence is cut), and how many more may be written. */
interface Walk {
  readonly path: Set<object>;
  left: number;
}

function convert(schema: unknown, openapi30: boolean, walk: Walk): unknown {
  if (typeof schema === 'boolean') return schema;
  if (!isRecord(schema)) return {};
  if (walk.path.has(schema)) return {};
  if (--walk.left < 0) throw new Error(TOO_LARGE);
  const path = walk.path;
  path.add(schema);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-') || OPENAPI_ONLY.has(key) || REFERENCES.has(key)) continue;
    if (key === 'format' && (typeof value !== 'string' || !KNOWN_FORMATS.has(value))) continue;
    // Draft-04's tuple form of items, which some 3.0 documents still use, is 2020-12's prefixItems.
    if (key === 'items' && Array.isArray(value)) out.prefixItems = value.map((child) => convert(child, openapi30, walk));
    else setOwn(out, key, convertKeyword(key, value, openapi30, walk));
  }
  path.delete(schema);
  if (schema.example !== undefined && out.examples === undefined) {
    countValue(schema.example, walk);
    out.examples = [schema.example];
  }
  if (openapi30) translate30(schema, out);
  return out;
}

/** A keyword's value: the schemas it holds converted, anything else as it is. */
function convertKeyword(key: string, value: unknown, openapi30: boolean, walk: Walk): unknown {
  if (SCHEMA_MAPS.includes(key) && isRecord(value)) {
    return Object.fromEntries(Object.entries(value).map(([name, child]) => [name, convert(child, openapi30, walk)]));
  }
  if (SCHEMA_LISTS.includes(key) && Array.isArray(value)) return value.map((child) => convert(child, openapi30, walk));
  if (SCHEMA_SINGLES.includes(key) && (isRecord(value) || typeof value === 'boolean')) return convert(value, openapi30, walk);
  countValue(value, walk);
  return value;
}

/** What 3.0 says differently from 2020-12: `nullable`, and `exclusiveMinimum`/`exclusiveMaximum` as booleans. */
function translate30(schema: Record<string, unknown>, out: Record<string, unknown>): void {
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof schema[flag] !== 'boolean') continue;
    delete out[flag];
    if (schema[flag] === true && typeof schema[bound] === 'number') {
      out[flag] = schema[bound];
      delete out[bound];
    }
  }
  if (schema.nullable !== true) return;
  if (typeof out.type === 'string') out.type = [out.type, 'null'];
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...(out.enum as unknown[]), null];
  if (out.type === undefined && (out.allOf !== undefined || out.oneOf !== undefined || out.anyOf !== undefined)) {
    const inner = { ...out };
    for (const key of Object.keys(out)) delete out[key];
    out.anyOf = [inner, { type: 'null' }];
  }
}

/** Whether a converted schema is an object schema at its root, as `outputSchema` must be. */
export function isObjectSchema(schema: JsonSchema): boolean {
  return schema.type === 'object';
}
