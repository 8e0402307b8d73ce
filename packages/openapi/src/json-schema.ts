import { formatNames } from 'ajv-formats/dist/formats';
import type { JsonSchema } from '@mcpkit/core';

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
  return convert(schema, openapi30, new Set()) as JsonSchema;
}

function convert(schema: unknown, openapi30: boolean, path: Set<object>): unknown {
  if (typeof schema === 'boolean') return schema;
  if (!isRecord(schema)) return {};
  if (path.has(schema)) return {};
  path.add(schema);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-') || OPENAPI_ONLY.has(key) || REFERENCES.has(key)) continue;
    if (key === 'format' && (typeof value !== 'string' || !KNOWN_FORMATS.has(value))) continue;
    // Draft-04's tuple form of items, which some 3.0 documents still use, is 2020-12's prefixItems.
    if (key === 'items' && Array.isArray(value)) out.prefixItems = value.map((child) => convert(child, openapi30, path));
    else out[key] = convertKeyword(key, value, openapi30, path);
  }
  path.delete(schema);
  if (schema.example !== undefined && out.examples === undefined) out.examples = [schema.example];
  if (openapi30) translate30(schema, out);
  return out;
}

/** A keyword's value: the schemas it holds converted, anything else as it is. */
function convertKeyword(key: string, value: unknown, openapi30: boolean, path: Set<object>): unknown {
  if (SCHEMA_MAPS.includes(key) && isRecord(value)) {
    return Object.fromEntries(Object.entries(value).map(([name, child]) => [name, convert(child, openapi30, path)]));
  }
  if (SCHEMA_LISTS.includes(key) && Array.isArray(value)) return value.map((child) => convert(child, openapi30, path));
  if (SCHEMA_SINGLES.includes(key) && (isRecord(value) || typeof value === 'boolean')) return convert(value, openapi30, path);
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
