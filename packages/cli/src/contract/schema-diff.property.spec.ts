import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { compareInputSchemas } from './schema-diff';

// The classification is held to what it claims, on generated pairs of schemas (objects, strings
// with lengths, patterns or formats, numbers with bounds, enums, arrays, nullable types, anyOf,
// $ref into $defs, a recursive definition) and generated edits of them (tighten, loosen, add,
// remove, retype, close, change defaults and descriptions):
// - no breaking change: every sampled value the old schema accepts, the new one accepts;
// - each breaking change has a witness: valid before and refused after (a removed default:
//   valid both times), checked here by a validator of its own.
// FUZZ_SEED replays another seed; FUZZ_RUNS multiplies the runs.

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_728);
const RUNS = 250 * Number(process.env.FUZZ_RUNS ?? 1);

type Json = Record<string, unknown>;

const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats(ajv);
const check = (schema: unknown) => ajv.compile(JSON.parse(JSON.stringify(schema)) as object);

const PATTERNS = ['^[a-z]+$', '^[0-9]+$', '^a'];
const FORMATS = ['date', 'email'];
const WORDS = ['a', 'b', 'c', 'd'];

const bounds = (low: number, high: number) =>
  fc
    .tuple(fc.option(fc.integer({ min: low, max: high }), { nil: undefined }), fc.option(fc.integer({ min: low, max: high }), { nil: undefined }))
    .map(([a, b]) => (a !== undefined && b !== undefined && a > b ? [b, a] : [a, b]));

function defined(schema: Json): Json {
  return Object.fromEntries(Object.entries(schema).filter(([, value]) => value !== undefined));
}

const stringSchema: fc.Arbitrary<Json> = fc.oneof(
  fc.tuple(bounds(0, 6), fc.option(fc.constantFrom(...PATTERNS), { nil: undefined })).map(([[minLength, maxLength], pattern]) =>
    // ^a needs one character at least.
    defined({
      type: 'string',
      minLength: pattern === '^a' || pattern?.endsWith('+$') ? Math.max(1, minLength ?? 1) : minLength,
      maxLength: maxLength === 0 ? 1 : maxLength,
      pattern,
    }),
  ),
  fc.constantFrom(...FORMATS).map((format) => ({ type: 'string', format })),
);
const numberSchema: fc.Arbitrary<Json> = fc
  .tuple(fc.constantFrom('integer', 'number'), bounds(-5, 20), fc.boolean())
  .map(([type, [minimum, maximum], exclusive]) =>
    defined({
      type,
      minimum,
      ...(exclusive && minimum !== undefined && maximum !== undefined && maximum > minimum + 1 ? { exclusiveMaximum: maximum } : { maximum }),
    }),
  );
const enumSchema: fc.Arbitrary<Json> = fc.subarray(WORDS, { minLength: 1 }).map((values) => ({ enum: values }));
const scalar = fc.oneof(stringSchema, numberSchema, enumSchema, fc.constant({ type: 'boolean' }));

const { leaf } = fc.letrec<{ leaf: Json }>((tie) => ({
  leaf: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: scalar, weight: 6 },
    { arbitrary: scalar.map((schema) => ({ anyOf: [schema, { type: 'null' }] })), weight: 1 },
    { arbitrary: numberSchema.map((schema) => ({ ...schema, type: [schema.type, 'null'] })), weight: 1 },
    {
      arbitrary: fc
        .tuple(tie('leaf'), bounds(0, 4), fc.boolean())
        .map(([items, [minItems, maxItems], uniqueItems]) => defined({ type: 'array', items, minItems, maxItems, uniqueItems: uniqueItems || undefined })),
      weight: 1,
    },
    {
      arbitrary: fc.dictionary(fc.constantFrom('p', 'q', 'r'), tie('leaf'), { minKeys: 1, maxKeys: 2 }).map((properties) => ({ type: 'object', properties })),
      weight: 1,
    },
  ),
}));

/** A tool's input: an object of up to four fields, some required, some with defaults; $defs and a recursive node. */
const rootSchema: fc.Arbitrary<Json> = fc
  .tuple(
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), leaf, { minKeys: 1, maxKeys: 4 }),
    fc.subarray(['a', 'b', 'c', 'd']),
    fc.boolean(),
    stringSchema,
    fc.boolean(),
  )
  .map(([properties, required, closed, shared, recursive]) => {
    const schema: Json = {
      type: 'object',
      properties: { ...properties, shared: { $ref: '#/$defs/Shared' }, ...(recursive ? { tree: { $ref: '#/$defs/Node' } } : {}) },
      required: required.filter((name) => name in properties),
      $defs: {
        Shared: shared,
        Node: { type: 'object', properties: { value: { type: 'string', maxLength: 8 }, next: { anyOf: [{ $ref: '#/$defs/Node' }, { type: 'null' }] } } },
      },
    };
    if (closed) schema.additionalProperties = false;
    return schema;
  });

/** Every schema inside a schema (where an edit can land): itself, its properties, items, branches and $defs. */
function places(schema: Json, found: Json[] = []): Json[] {
  found.push(schema);
  for (const map of [schema.properties, schema.$defs]) if (map && typeof map === 'object') for (const inner of Object.values(map)) places(inner as Json, found);
  if (schema.items && typeof schema.items === 'object') places(schema.items as Json, found);
  if (Array.isArray(schema.anyOf)) for (const branch of schema.anyOf) places(branch as Json, found);
  return found;
}

type Edit = (schema: Json, pick: number) => void;

const bump = (key: string, by: number) => (schema: Json) => {
  if (typeof schema[key] === 'number') schema[key] = Math.max(0, (schema[key] as number) + by);
};

const EDITS: Record<string, Edit> = {
  tightenMax: (s) => (bump('maxLength', -1)(s), bump('maxItems', -1)(s), bump('maximum', -2)(s)),
  loosenMax: (s) => (bump('maxLength', 2)(s), bump('maxItems', 2)(s), bump('maximum', 3)(s)),
  tightenMin: (s) => (bump('minLength', 1)(s), bump('minItems', 1)(s), bump('minimum', 2)(s)),
  loosenMin: (s) => (delete s.minLength, delete s.minItems, delete s.minimum),
  addMax: (s) => (s.type === 'string' ? (s.maxLength ??= 2) : s.type === 'array' ? (s.maxItems ??= 1) : s.type === 'integer' ? (s.maximum ??= 3) : undefined),
  addPattern: (s, pick) => (s.type === 'string' && s.format === undefined ? (s.pattern ??= PATTERNS[pick % PATTERNS.length]) : undefined),
  dropPattern: (s) => delete s.pattern,
  addFormat: (s, pick) => (s.type === 'string' && s.maxLength === undefined ? (s.format ??= FORMATS[pick % FORMATS.length]) : undefined),
  dropFormat: (s) => delete s.format,
  dropEnumValue: (s) => (Array.isArray(s.enum) && s.enum.length > 1 ? s.enum.pop() : undefined),
  addEnumValue: (s) => (Array.isArray(s.enum) && !s.enum.includes('e') ? s.enum.push('e') : undefined),
  narrowNumber: (s) => (s.type === 'number' ? (s.type = 'integer') : undefined),
  widenInteger: (s) => (s.type === 'integer' ? (s.type = 'number') : undefined),
  retype: (s) =>
    s.type === 'boolean'
      ? (s.type = 'string')
      : s.type === 'string'
        ? ((s.type = 'integer'), delete s.pattern, delete s.format, delete s.minLength, delete s.maxLength)
        : undefined,
  dropNull: (s) => {
    if (Array.isArray(s.type)) s.type = s.type.filter((type) => type !== 'null')[0];
    if (Array.isArray(s.anyOf)) s.anyOf = s.anyOf.filter((branch) => (branch as Json).type !== 'null');
  },
  addNull: (s) => (typeof s.type === 'string' && s.type !== 'object' && s.type !== 'null' ? (s.type = [s.type, 'null']) : undefined),
  require: (s, pick) => {
    const names = Object.keys((s.properties as Json | undefined) ?? {});
    if (s.type === 'object' && names.length > 0) s.required = [...new Set([...((s.required as string[]) ?? []), names[pick % names.length]])];
  },
  unrequire: (s) => (Array.isArray(s.required) ? s.required.pop() : undefined),
  addOptional: (s) => (s.type === 'object' && s.properties ? ((s.properties as Json).z = { type: 'string' }) : undefined),
  addRequired: (s) =>
    s.type === 'object' && s.properties
      ? (((s.properties as Json).y = { type: 'boolean' }), (s.required = [...new Set([...((s.required as string[]) ?? []), 'y'])]))
      : undefined,
  removeProperty: (s, pick) => {
    const properties = s.properties as Json | undefined;
    const names = Object.keys(properties ?? {}).filter((name) => name !== 'shared' && name !== 'tree');
    if (s.type !== 'object' || names.length === 0) return;
    const name = names[pick % names.length];
    delete properties![name];
    if (Array.isArray(s.required)) s.required = s.required.filter((key) => key !== name);
  },
  close: (s) => (s.type === 'object' ? (s.additionalProperties = false) : undefined),
  open: (s) => delete s.additionalProperties,
  addDefault: (s) =>
    s.type === 'boolean' ? (s.default = false) : s.type === 'integer' && s.minimum === undefined && s.maximum === undefined ? (s.default = 0) : undefined,
  dropDefault: (s) => delete s.default,
  describe: (s) => (s.description = `edited ${String(s.description ?? '')}`),
  addUnique: (s) => (s.type === 'array' ? (s.uniqueItems = true) : undefined),
};

/** A value generator for the schemas above (values outside the schema are filtered by the validator). */
function values(schema: unknown, root: Json, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || typeof schema !== 'object') return fc.constant(null);
  const s = schema as Json;
  if (typeof s.$ref === 'string') {
    if (depth > 3) return fc.constant(s.$ref === '#/$defs/Node' ? { value: 'a' } : 'a');
    return values((root.$defs as Json)[s.$ref.slice('#/$defs/'.length)], root, depth + 1);
  }
  if (Array.isArray(s.anyOf)) return fc.oneof(...s.anyOf.map((branch) => values(branch, root, depth + 1)));
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'null':
          return fc.constant(null);
        case 'boolean':
          return fc.boolean();
        case 'integer':
          return fc.integer({ min: -8, max: 25 });
        case 'number':
          return fc.oneof(fc.integer({ min: -8, max: 25 }), fc.double({ min: -8, max: 25, noNaN: true }));
        case 'string':
          if (s.format === 'date') return fc.constantFrom('2024-01-01', '1999-12-31');
          if (s.format === 'email') return fc.constantFrom('a@example.com', 'b@c.org');
          if (typeof s.pattern === 'string') return fc.stringMatching(new RegExp(s.pattern)).filter((text) => text.length <= 8);
          return fc.string({ maxLength: 8 });
        case 'array':
          return fc.array(values(s.items, root, depth + 1), { maxLength: 5 });
        case 'object': {
          const properties = (s.properties as Json | undefined) ?? {};
          const record: Record<string, fc.Arbitrary<unknown>> = {};
          for (const [name, inner] of Object.entries(properties)) record[name] = values(inner, root, depth + 1);
          const required = Array.isArray(s.required) ? (s.required as string[]).filter((name) => name in record) : [];
          return fc.record(record, { requiredKeys: required });
        }
        default:
          return fc.anything({ maxDepth: 1 });
      }
    }),
  );
}

const pair = rootSchema.chain((before) =>
  fc
    .tuple(fc.constant(before), fc.array(fc.tuple(fc.constantFrom(...Object.keys(EDITS)), fc.nat(), fc.nat()), { minLength: 1, maxLength: 3 }))
    .map(([schema, edits]) => {
      const after = JSON.parse(JSON.stringify(schema)) as Json;
      for (const [edit, where, pick] of edits) {
        // The first place, from a random one on, where the edit changes something.
        const all = places(after);
        for (let step = 0; step < all.length; step++) {
          const place = all[(where + step) % all.length];
          const was = JSON.stringify(place);
          EDITS[edit](place, pick);
          if (JSON.stringify(place) !== was) break;
        }
      }
      return { before: schema, after, edits: edits.map(([edit]) => edit) };
    }),
);

describe('compareInputSchemas on generated schema pairs', () => {
  it('calls nothing breaking that refuses a value the old schema accepted, and shows every breaking change with a witness', () => {
    let breaking = 0;
    let safe = 0;
    fc.assert(
      fc.property(pair, ({ before, after }) => {
        const validBefore = check(before);
        const validAfter = check(after);
        // Plain JSON, as a client sends it.
        const samples = fc
          .sample(values(before, before), { numRuns: 40, seed: SEED })
          .map((value) => JSON.parse(JSON.stringify(value)) as unknown)
          .filter((value) => validBefore(value));
        // A schema no value meets (required unique items of a too small kind) has nothing to break.
        fc.pre(samples.length > 0);
        const changes = compareInputSchemas(before, after);
        const breakingChanges = changes.filter((change) => change.severity === 'breaking');
        if (breakingChanges.length === 0) {
          safe++;
          for (const value of samples) expect({ value, accepted: validAfter(value) }).toEqual({ value, accepted: true });
          return;
        }
        breaking++;
        for (const change of breakingChanges) {
          expect({ change, witnessed: 'witness' in change }).toEqual({ change, witnessed: true });
          const { witness } = change;
          expect({ change, before: validBefore(witness) }).toEqual({ change, before: true });
          expect({ change, after: validAfter(witness) }).toEqual({ change, after: change.rule === 'input-default-removed' });
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // The generator makes both kinds, in numbers.
    expect(breaking).toBeGreaterThan(RUNS / 5);
    expect(safe).toBeGreaterThan(RUNS / 10);
  });
});
