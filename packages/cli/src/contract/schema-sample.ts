import { covers, enumOf, isSchemaObject, jsonTypeOf, sameJson, typeSet, type JsonType, type SchemaReader } from './schema-view';

/** A step from a schema to a part of it, to place a value there: a property, an item, a branch of a union. */
export type Segment = { property: string } | { item: number | 'each' } | { branch: number } | { additional: string };

/** A schema and the reader of the document it belongs to (its `$ref`s resolve there). */
export interface Side {
  reader: SchemaReader;
  schema: unknown;
}

/** Deepest nesting the sampler builds: a recursive schema whose recursion is required has no finite value. */
const MAX_DEPTH = 16;

/** Values of each format: several, as unique items of a format need more than one. */
const FORMAT_SAMPLES: Record<string, readonly string[]> = {
  'date-time': ['2024-01-01T00:00:00Z', '2024-01-02T00:00:00Z', '2024-01-03T00:00:00Z', '2024-01-04T00:00:00Z', '2024-01-05T00:00:00Z'],
  date: ['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05'],
  time: ['00:00:00Z', '01:00:00Z', '02:00:00Z', '03:00:00Z', '04:00:00Z'],
  duration: ['P1D', 'P2D', 'P3D', 'P4D', 'P5D'],
  email: ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com', 'e@example.com'],
  'idn-email': ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com', 'e@example.com'],
  hostname: ['a.example', 'b.example', 'c.example', 'd.example', 'e.example'],
  'idn-hostname': ['a.example', 'b.example', 'c.example', 'd.example', 'e.example'],
  ipv4: ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'],
  ipv6: ['::1', '::2', '::3', '::4', '::5'],
  uri: ['https://example.com/a', 'https://example.com/b', 'https://example.com/c', 'https://example.com/d', 'https://example.com/e'],
  'uri-reference': ['/a', '/b', '/c', '/d', '/e'],
  iri: ['https://example.com/a', 'https://example.com/b', 'https://example.com/c', 'https://example.com/d', 'https://example.com/e'],
  'iri-reference': ['/a', '/b', '/c', '/d', '/e'],
  'uri-template': ['https://example.com/{a}', 'https://example.com/{b}', 'https://example.com/{c}', 'https://example.com/{d}', 'https://example.com/{e}'],
  uuid: [
    '00000000-0000-4000-8000-000000000001',
    '00000000-0000-4000-8000-000000000002',
    '00000000-0000-4000-8000-000000000003',
    '00000000-0000-4000-8000-000000000004',
  ],
  'json-pointer': ['/a', '/b', '/c', '/d', '/e'],
  'relative-json-pointer': ['0', '1', '2', '3', '4'],
  regex: ['a+', 'b+', 'c+', 'd+', 'e+'],
};

const STRINGS = ['', 'a', 'x', 'abc', 'hello', 'A', 'Z', '0', '1', '42', 'a1', 'aa', 'test', 'foo bar', '-', '_', 'a-b', 'a_b', 'not-a-format', ' '];

function num(schema: Record<string, unknown>, key: string): number | undefined {
  return typeof schema[key] === 'number' ? (schema[key] as number) : undefined;
}

function codePoints(text: string): number {
  return [...text].length;
}

/**
 * Whether a string meets a schema's lengths and pattern; `format`: a known format is met only by
 * its sample (the sampler cannot check formats, so it builds that one), unknown ones are not read.
 */
export function stringOk(schema: Record<string, unknown>, text: string, format = true): boolean {
  const min = num(schema, 'minLength');
  const max = num(schema, 'maxLength');
  if ((min !== undefined && codePoints(text) < min) || (max !== undefined && codePoints(text) > max)) return false;
  if (format && typeof schema.format === 'string' && FORMAT_SAMPLES[schema.format] !== undefined && !FORMAT_SAMPLES[schema.format].includes(text)) return false;
  if (typeof schema.pattern === 'string') {
    try {
      if (!new RegExp(schema.pattern, 'u').test(text)) return false;
    } catch {
      return true;
    }
  }
  return true;
}

/** Whether a number meets a schema's bounds and multipleOf (and is whole, for `integer`). */
export function numberOk(schema: Record<string, unknown>, value: number, integer: boolean): boolean {
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value))) return false;
  const minimum = num(schema, 'minimum');
  const maximum = num(schema, 'maximum');
  const exclusiveMinimum = schema.exclusiveMinimum === true ? minimum : num(schema, 'exclusiveMinimum');
  const exclusiveMaximum = schema.exclusiveMaximum === true ? maximum : num(schema, 'exclusiveMaximum');
  if (minimum !== undefined && value < minimum) return false;
  if (maximum !== undefined && value > maximum) return false;
  if (exclusiveMinimum !== undefined && value <= exclusiveMinimum) return false;
  if (exclusiveMaximum !== undefined && value >= exclusiveMaximum) return false;
  const step = num(schema, 'multipleOf');
  return step === undefined || step <= 0 || Math.abs(value / step - Math.round(value / step)) < 1e-9;
}

/** Numbers near every bound the schema names (`extra` first): the candidates a witness is looked for among. */
export function numberCandidates(schema: Record<string, unknown>, extra: readonly number[] = []): number[] {
  const marks = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'].map((key) => num(schema, key)).filter((x): x is number => x !== undefined);
  const step = num(schema, 'multipleOf');
  const found = new Set<number>();
  // A witness just past the bound a caller names reads best.
  for (const mark of [...extra, ...marks]) {
    for (const delta of [0, 1, -1, 0.5, -0.5, 2, -2]) found.add(mark + delta);
    found.add(Math.floor(mark));
    found.add(Math.ceil(mark));
    if (step !== undefined && step > 0) for (const k of [-1, 0, 1, 2]) found.add((Math.floor(mark / step) + k) * step);
  }
  if (step !== undefined && step > 0) for (const k of [1, 2, 3]) found.add(step * k);
  for (const x of [0, 1, -1, 2, 0.5, 10, 100, -100]) found.add(x);
  return [...found];
}

/** Strings that may meet a schema's lengths, pattern and format (`extra` lengths first): candidates for a witness. */
export function stringCandidates(schema: Record<string, unknown>, extra: readonly number[] = []): string[] {
  const found = new Set<string>();
  if (typeof schema.format === 'string' && FORMAT_SAMPLES[schema.format]) for (const sample of FORMAT_SAMPLES[schema.format]) found.add(sample);
  for (const length of [...extra, num(schema, 'minLength'), num(schema, 'maxLength')]) {
    if (length === undefined || length > 10_000) continue;
    for (const n of [length, length - 1, length + 1]) if (n >= 0) for (const base of ['a', '0', 'ab']) found.add(base.repeat(n).slice(0, n));
  }
  for (const text of STRINGS) found.add(text);
  for (const samples of Object.values(FORMAT_SAMPLES)) found.add(samples[0]);
  return [...found];
}

/** The values once each, in order. */
function distinct(values: readonly unknown[]): unknown[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = JSON.stringify(value);
    return !seen.has(key) && seen.add(key);
  });
}

/** Which type to build for a schema that names none: the one its keywords speak of. */
function impliedType(schema: Record<string, unknown>): JsonType {
  if ('properties' in schema || 'required' in schema || 'additionalProperties' in schema) return 'object';
  if ('items' in schema || 'prefixItems' in schema || 'minItems' in schema) return 'array';
  if ('minimum' in schema || 'maximum' in schema || 'multipleOf' in schema) return 'number';
  return 'string';
}

/** One alternative of each side, chosen together. */
type Pick = Array<{ reader: SchemaReader; schema: Record<string, unknown> }>;

/**
 * Builds values that schemas accept, several at once (each side resolved in its own document):
 * the rest of a witness meets both versions, so it is refused for the one change it shows.
 * Patterns and formats are guessed: a validator checks what comes out.
 */
export class Sampler {
  /** A small value every side accepts, of `type` when given; undefined when none was found. */
  sample(sides: readonly Side[], type?: JsonType, depth = 0): { value: unknown } | undefined {
    if (depth > MAX_DEPTH) return undefined;
    for (const pick of this.picks(sides, type)) {
      const value = this.ofType(pick, type ?? this.typeFor(pick), depth);
      if (value !== undefined) return value;
    }
    return undefined;
  }

  // How many variants() calls are under way: nested arrays of unique items ask for variants of variants.
  private nested = 0;

  /** Several values one schema may accept, of every type it allows (unchecked). */
  variants(side: Side, depth = 0): unknown[] {
    if (this.nested > 3) return [];
    this.nested++;
    try {
      return this.variantsOf(side, depth);
    } finally {
      this.nested--;
    }
  }

  private variantsOf(side: Side, depth: number): unknown[] {
    const found: unknown[] = [];
    for (const alternative of side.reader.alternatives(side.schema)) {
      if (alternative === false) continue;
      const object = alternative === true ? {} : alternative;
      const values = enumOf(object);
      if (values) {
        found.push(...values);
        continue;
      }
      const pick: Pick = [{ reader: side.reader, schema: object }];
      for (const type of typeSet(object) ?? new Set<JsonType>(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array'])) {
        if (type === 'string') found.push(...stringCandidates(object).filter((text) => stringOk(object, text)));
        else if (type === 'number' || type === 'integer') found.push(...numberCandidates(object).filter((x) => numberOk(object, x, type === 'integer')));
        else if (type === 'boolean') found.push(false, true);
        else if (type === 'null') found.push(null);
        else {
          const minimal = this.ofType(pick, type, depth);
          if (minimal) found.push(minimal.value);
          if (type === 'object' && minimal && depth < 2)
            found.push(...this.objectVariants(side.reader, object, minimal.value as Record<string, unknown>, depth));
          if (type === 'array' && depth < 2) found.push(...this.arrayVariants(side.reader, object, depth));
        }
      }
    }
    return found;
  }

  /** An object every side accepts without the property `except` (which some side may require). */
  objectOf(sides: readonly Side[], except?: string): Record<string, unknown> | undefined {
    for (const pick of this.picks(sides, 'object')) {
      const value = this.object(pick, 0, except);
      if (value) return value.value;
    }
    return undefined;
  }

  /** An array of `length` items one schema accepts (`repeat`: the first item over and over). */
  arrayOf(side: Side, length: number, repeat = false): unknown[] | undefined {
    for (const alternative of side.reader.alternatives(side.schema)) {
      if (alternative === false || !covers(typeSet(alternative), 'array')) continue;
      const items = this.items([{ reader: side.reader, schema: alternative === true ? {} : alternative }], length, 0, repeat);
      if (items) return items.value;
    }
    return undefined;
  }

  /**
   * A value with `leaf` at the place `segments` lead to in the first side's schema, the rest
   * accepted by every side; undefined when the way there has no value.
   */
  embed(sides: readonly Side[], segments: readonly Segment[], leaf: unknown, depth = 0): { value: unknown } | undefined {
    if (segments.length === 0) return { value: leaf };
    if (depth > MAX_DEPTH * 4 || sides.length === 0) return undefined;
    const [segment, ...rest] = segments;
    const [primary, ...others] = sides;
    if ('branch' in segment) {
      const alternative = primary.reader.alternatives(primary.schema)[segment.branch];
      return alternative === undefined ? undefined : this.embed([{ reader: primary.reader, schema: alternative }, ...others], rest, leaf, depth + 1);
    }
    const type: JsonType = 'item' in segment ? 'array' : 'object';
    const index = 'item' in segment ? (segment.item === 'each' ? 0 : segment.item) : 0;
    const name = 'property' in segment ? segment.property : 'additional' in segment ? segment.additional : '';
    const part = (schema: Record<string, unknown>) => ('item' in segment ? this.itemSchema(schema, index) : this.propertySchema(schema, name));
    for (const pick of this.picks(sides, type)) {
      const inner = this.embed(this.children(pick, part), rest, leaf, depth + 1);
      if (inner === undefined) continue;
      // The other items differ from the one placed, where items must be unique.
      const base = 'item' in segment ? this.items(pick, Math.max(index, this.minItems(pick)), depth, false, [inner.value]) : this.object(pick, depth, name);
      if (base === undefined) continue;
      if (!Array.isArray(base.value)) return { value: { ...base.value, [name]: inner.value } };
      const items = [...base.value];
      items[index] = inner.value;
      return { value: items };
    }
    return undefined;
  }

  /** The sides of a part: each side's schema for it, the sides that refuse it outright dropped (the first is kept). */
  private children(pick: Pick, part: (schema: Record<string, unknown>) => unknown): Side[] {
    return pick.map((side) => ({ reader: side.reader, schema: part(side.schema) })).filter((side, index) => index === 0 || side.schema !== false);
  }

  private propertySchema(schema: Record<string, unknown>, name: string): unknown {
    const properties = isSchemaObject(schema.properties) ? schema.properties : {};
    return name in properties ? properties[name] : (schema.additionalProperties ?? true);
  }

  private itemSchema(schema: Record<string, unknown>, index: number): unknown {
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    return index < prefix.length ? prefix[index] : (schema.items ?? true);
  }

  /** Alternatives of every side that can hold a value of one type together: the first side's in order. */
  private *picks(sides: readonly Side[], type?: JsonType): Generator<Pick> {
    if (sides.length === 0) return;
    const [first, ...others] = sides;
    for (const alternative of first.reader.alternatives(first.schema)) {
      if (alternative === false) continue;
      const head = alternative === true ? {} : alternative;
      const chosen = type ?? this.typeFor([{ reader: first.reader, schema: head }]);
      if (!covers(typeSet(head), chosen) && !(chosen === 'integer' && covers(typeSet(head), 'number'))) continue;
      const pick: Pick = [{ reader: first.reader, schema: head }];
      for (const other of others) {
        const match = other.reader
          .alternatives(other.schema)
          .find((candidate): candidate is Record<string, unknown> | true => candidate !== false && covers(typeSet(candidate), chosen));
        if (match === undefined) break;
        pick.push({ reader: other.reader, schema: match === true ? {} : match });
      }
      if (pick.length === sides.length) yield pick;
    }
  }

  private typeFor(pick: Pick): JsonType {
    const types = typeSet(pick[0].schema);
    const values = enumOf(pick[0].schema);
    if (values && values.length > 0) return jsonTypeOf(values[0]);
    if (types) return [...types].find((type) => type !== 'null' && pick.every((side) => covers(typeSet(side.schema), type))) ?? [...types][0] ?? 'null';
    return impliedType(pick[0].schema);
  }

  private ofType(pick: Pick, type: JsonType, depth: number): { value: unknown } | undefined {
    const allowed = (value: unknown) =>
      pick.every((side) => {
        const values = enumOf(side.schema);
        return values === undefined || values.some((other) => sameJson(value, other));
      });
    const enumerated = pick.map((side) => enumOf(side.schema)).find((values) => values !== undefined);
    if (enumerated) {
      const value = enumerated.find((candidate) => allowed(candidate) && covers(new Set([type]), jsonTypeOf(candidate)));
      return value === undefined && !(type === 'null' && enumerated.includes(null)) ? undefined : { value: value ?? null };
    }
    switch (type) {
      case 'null':
        return { value: null };
      case 'boolean':
        return { value: false };
      case 'number':
      case 'integer': {
        const candidates = pick.flatMap((side) => numberCandidates(side.schema));
        const value = candidates.find((x) => pick.every((side) => numberOk(side.schema, x, type === 'integer')));
        return value === undefined ? undefined : { value };
      }
      case 'string': {
        const candidates = pick.flatMap((side) => stringCandidates(side.schema));
        const value = candidates.find((text) => pick.every((side) => stringOk(side.schema, text)));
        return value === undefined ? undefined : { value };
      }
      case 'array':
        return this.items(pick, this.minItems(pick), depth);
      case 'object':
        return this.object(pick, depth);
    }
  }

  private minItems(pick: Pick): number {
    return Math.max(0, ...pick.map((side) => num(side.schema, 'minItems') ?? 0));
  }

  /** An object every side accepts: the properties any side requires (but `except`), then more up to minProperties. */
  private object(pick: Pick, depth: number, except?: string): { value: Record<string, unknown> } | undefined {
    const value: Record<string, unknown> = {};
    const required = new Set(pick.flatMap((side) => (Array.isArray(side.schema.required) ? (side.schema.required as string[]) : [])));
    const fill = (name: string): boolean => {
      const sides = pick.map((side) => ({ reader: side.reader, schema: this.propertySchema(side.schema, name) }));
      if (sides.some((side) => side.schema === false)) return false;
      const inner = this.sample(sides, undefined, depth + 1);
      if (inner === undefined) return false;
      value[name] = inner.value;
      return true;
    };
    for (const name of required) if (name !== except && !fill(name)) return undefined;
    const atLeast = Math.max(0, ...pick.map((side) => num(side.schema, 'minProperties') ?? 0));
    const optional = pick.flatMap((side) => Object.keys(isSchemaObject(side.schema.properties) ? side.schema.properties : {}));
    for (const name of optional) {
      if (Object.keys(value).length + (except === undefined ? 0 : 1) >= atLeast) break;
      if (!(name in value) && name !== except) fill(name);
    }
    return { value };
  }

  private items(pick: Pick, length: number, depth: number, repeat = false, taken: readonly unknown[] = []): { value: unknown[] } | undefined {
    const items: unknown[] = [];
    // Distinct items where uniqueItems asks for them.
    const unique = pick.some((side) => side.schema.uniqueItems === true) && !repeat;
    for (let index = 0; index < length; index++) {
      if (repeat && index > 0) {
        items.push(items[0]);
        continue;
      }
      const sides = pick.map((side) => ({ reader: side.reader, schema: this.itemSchema(side.schema, index) }));
      const distinct = unique
        ? this.variants(sides[0]).find(
            (option) => ![...items, ...taken].some((item) => sameJson(item, option)) && sides.every((side) => this.fits(side, option)),
          )
        : undefined;
      const inner = distinct !== undefined ? { value: distinct } : this.sample(sides, undefined, depth + 1);
      if (inner === undefined) return undefined;
      items.push(inner.value);
    }
    return { value: items };
  }

  /** Whether a value meets a schema as far as a quick look tells (types, enums, bounds, required keys; formats not read). */
  fits(side: Side, value: unknown, depth = 0): boolean {
    if (depth > MAX_DEPTH) return true;
    return side.reader.alternatives(side.schema).some((alternative) => {
      if (alternative === true) return true;
      if (alternative === false || !covers(typeSet(alternative), jsonTypeOf(value))) return false;
      const values = enumOf(alternative);
      if (values && !values.some((other) => sameJson(value, other))) return false;
      if (typeof value === 'string') return stringOk(alternative, value, false);
      if (typeof value === 'number') return numberOk(alternative, value, !covers(typeSet(alternative), 'number'));
      const inner = (schema: unknown, item: unknown) => this.fits({ reader: side.reader, schema }, item, depth + 1);
      if (Array.isArray(value)) {
        const [min, max] = [num(alternative, 'minItems') ?? 0, num(alternative, 'maxItems') ?? Infinity];
        const unique = alternative.uniqueItems !== true || value.every((item, index) => value.findIndex((other) => sameJson(item, other)) === index);
        return unique && value.length >= min && value.length <= max && value.every((item, index) => inner(this.itemSchema(alternative, index), item));
      }
      if (isSchemaObject(value)) {
        const required = Array.isArray(alternative.required) ? (alternative.required as string[]) : [];
        return required.every((name) => name in value) && Object.entries(value).every(([name, item]) => inner(this.propertySchema(alternative, name), item));
      }
      return true;
    });
  }

  private objectVariants(reader: SchemaReader, schema: Record<string, unknown>, minimal: Record<string, unknown>, depth: number): unknown[] {
    const properties = isSchemaObject(schema.properties) ? schema.properties : {};
    const found: unknown[] = [];
    for (const key of Object.keys(properties)) {
      if (key in minimal) continue;
      const options = this.variants({ reader, schema: properties[key] }, depth + 1).filter((option) => this.fits({ reader, schema: properties[key] }, option));
      for (const option of distinct(options).slice(0, 8)) found.push({ ...minimal, [key]: option });
    }
    // An open object also takes keys it does not name.
    if (schema.additionalProperties === undefined || schema.additionalProperties === true) {
      let extra = 'extra';
      for (let n = 2; extra in properties; n++) extra = `extra_${n}`;
      for (const value of [0, 1, 'a']) found.push({ ...minimal, [extra]: value });
    }
    return found;
  }

  private arrayVariants(reader: SchemaReader, schema: Record<string, unknown>, depth: number): unknown[] {
    const found: unknown[] = [];
    // The shortest list, with each of a few different first items.
    const shortest = this.items([{ reader, schema }], Math.max(1, num(schema, 'minItems') ?? 0), depth + 1);
    if (shortest) {
      found.push([...shortest.value].reverse());
      for (const first of this.variants({ reader, schema: this.itemSchema(schema, 0) }, depth + 1).slice(0, 8)) found.push([first, ...shortest.value.slice(1)]);
    }
    const bounds = [num(schema, 'minItems'), num(schema, 'maxItems')].filter((n): n is number => n !== undefined && n <= 1000);
    for (const length of new Set([0, 1, 2, 3, ...bounds.flatMap((n) => [n - 1, n, n + 1])])) {
      if (length < 0) continue;
      for (const repeat of [false, true]) {
        const items = this.items([{ reader, schema }], length, depth + 1, repeat);
        if (items) found.push(items.value);
      }
    }
    return found;
  }
}
