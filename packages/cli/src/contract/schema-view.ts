// Reading JSON Schemas as values are checked against them: local $refs followed, allOf merged,
// unions (anyOf, oneOf, nullable) split into alternatives. Used by the diff, its witnesses and lint.

/** A JSON Schema: an object, or `true` (anything) / `false` (nothing). */
export type Schema = Record<string, unknown> | boolean;

/** JSON types, `integer` included (a subset of `number`). */
export type JsonType = 'null' | 'boolean' | 'object' | 'array' | 'number' | 'integer' | 'string';

export const JSON_TYPES: readonly JsonType[] = ['null', 'boolean', 'object', 'array', 'number', 'integer', 'string'];

/** A ref chain longer than this is a loop (`$defs: { A: { $ref: B }, B: { $ref: A } }`): read as anything. */
const MAX_REF_HOPS = 32;

export function isSchemaObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asSchema(value: unknown): Schema {
  return typeof value === 'boolean' ? value : isSchemaObject(value) ? value : true;
}

/** The value a local JSON pointer (`#/$defs/Note`, `#`) names in `root`, or undefined. */
function pointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isSchemaObject(at) && !Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

const LOWER_BOUNDS = new Set(['minimum', 'minLength', 'minItems', 'minProperties', 'exclusiveMinimum']);
const UPPER_BOUNDS = new Set(['maximum', 'maxLength', 'maxItems', 'maxProperties', 'exclusiveMaximum']);

/** Both schemas at once (allOf): properties kept from both, the tighter bound of each pair. */
export function mergeSchemas(a: Schema, b: Schema): Schema {
  if (a === false || b === false) return false;
  if (a === true) return b;
  if (b === true) return a;
  const merged: Record<string, unknown> = { ...a };
  for (const [key, value] of Object.entries(b)) merged[key] = merged[key] === undefined ? value : mergeKeyword(key, merged[key], value, a, b);
  return merged;
}

/** A keyword both schemas have: what means both, or the first schema's value where the two are not combined. */
function mergeKeyword(key: string, mine: unknown, value: unknown, a: Record<string, unknown>, b: Record<string, unknown>): unknown {
  if (key === 'properties' && isSchemaObject(mine) && isSchemaObject(value)) {
    const properties: Record<string, unknown> = { ...mine };
    for (const [name, schema] of Object.entries(value)) properties[name] = name in properties ? { allOf: [properties[name], schema] } : schema;
    return properties;
  }
  if (key === 'required' && Array.isArray(mine) && Array.isArray(value)) return [...new Set([...mine, ...value])];
  if (key === 'type') {
    const both = [...(typeSet(a) ?? [])].filter((type) => covers(typeSet(b), type));
    return both.length === 1 ? both[0] : both;
  }
  if (typeof mine === 'number' && typeof value === 'number') {
    if (LOWER_BOUNDS.has(key)) return Math.max(mine, value);
    if (UPPER_BOUNDS.has(key)) return Math.min(mine, value);
  }
  if (key === 'enum' && Array.isArray(mine) && Array.isArray(value)) return mine.filter((item) => value.some((other) => sameJson(item, other)));
  return mine;
}

/**
 * The schema a value meets at this point, as one object or boolean: `$ref` followed (local
 * pointers; its sibling keywords merged), `allOf` merged. Recursive schemas stay finite: a ref
 * resolves to the very object it names, so callers can tell a pair they are already comparing.
 */
export class SchemaReader {
  private readonly cache = new WeakMap<object, Schema>();
  // The same schema always splits into the same objects, so a recursive union is recognised.
  private readonly split = new WeakMap<object, Schema[]>();

  constructor(readonly root: unknown) {}

  resolve(given: unknown, hops = 0): Schema {
    const schema = asSchema(given);
    if (typeof schema === 'boolean') return schema;
    const cached = this.cache.get(schema);
    if (cached !== undefined) return cached;
    let resolved: Schema = schema;
    const { $ref: ref, allOf, ...rest } = schema;
    if (typeof ref === 'string') {
      const target = hops < MAX_REF_HOPS ? pointer(this.root, ref) : undefined;
      const base = target === undefined ? true : this.resolve(target, hops + 1);
      resolved = hasKeywords(rest) ? mergeSchemas(base, { ...rest, ...(allOf !== undefined ? { allOf } : {}) }) : base;
      if (allOf !== undefined && typeof resolved === 'object') resolved = this.resolve(resolved, hops + 1);
    } else if (Array.isArray(allOf)) {
      resolved = allOf.reduce<Schema>((merged, member) => mergeSchemas(merged, this.resolve(member, hops + 1)), rest);
    }
    this.cache.set(schema, resolved);
    return resolved;
  }

  /**
   * The alternatives a value may match: the branches of `anyOf` / `oneOf` (each with the
   * keywords beside them), `{ type: 'null' }` for OpenAPI's `nullable: true`; else the schema alone.
   */
  alternatives(given: unknown): Schema[] {
    const schema = this.resolve(given);
    if (typeof schema === 'boolean') return [schema];
    const known = this.split.get(schema);
    if (known) return known;
    const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
    const { anyOf: _anyOf, oneOf: _oneOf, nullable, ...base } = schema;
    const constraints = Object.fromEntries(Object.entries(base).filter(([key]) => !ANNOTATIONS.has(key)));
    const alternatives: Schema[] = [];
    if (union) {
      for (const branch of union) alternatives.push(...this.alternatives(hasKeywords(constraints) ? mergeSchemas(constraints, this.resolve(branch)) : branch));
    } else alternatives.push(nullable === true ? base : schema);
    if (nullable === true) alternatives.push({ type: 'null' });
    this.split.set(schema, alternatives);
    return alternatives;
  }
}

function hasKeywords(schema: Record<string, unknown>): boolean {
  return Object.keys(schema).length > 0;
}

/** Keywords that describe and never constrain. */
export const ANNOTATIONS: ReadonlySet<string> = new Set([
  'description',
  'title',
  'examples',
  'example',
  'deprecated',
  '$comment',
  'readOnly',
  'writeOnly',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
  'default',
  '$schema',
  '$id',
  '$anchor',
  '$defs',
  'definitions',
]);

export function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

/** The types a (resolved, single-alternative) schema allows; undefined: any. */
export function typeSet(schema: Schema): Set<JsonType> | undefined {
  if (schema === false) return new Set();
  if (schema === true) return undefined;
  const { type } = schema;
  if (typeof type === 'string') return new Set([type as JsonType]);
  if (Array.isArray(type)) return new Set(type as JsonType[]);
  const values = enumOf(schema);
  return values ? new Set(values.map(jsonTypeOf)) : undefined;
}

/** Whether `types` (undefined: any) allows `type`; `number` allows `integer`. */
export function covers(types: ReadonlySet<JsonType> | undefined, type: JsonType): boolean {
  return types === undefined || types.has(type) || (type === 'integer' && types.has('number'));
}

/** The values `enum` or `const` allow, or undefined when neither is there. */
export function enumOf(schema: Schema): unknown[] | undefined {
  if (typeof schema === 'boolean') return undefined;
  if ('const' in schema) return [schema.const];
  return Array.isArray(schema.enum) ? schema.enum : undefined;
}

/** Deep equality of JSON values (object key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((item, index) => sameJson(item, (b as unknown[])[index]));
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length && keys.every((key) => key in b && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
  );
}
