import { DIFF_RULES, type DiffRuleId, type Severity } from './diff-rules';
import { canonicalJson } from './canonical-json';
import { SchemaChecker, type SchemaCheck } from './schema-check';
import { numberCandidates, numberOk, Sampler, stringCandidates, stringOk, type Segment, type Side } from './schema-sample';
import {
  ANNOTATIONS,
  covers,
  enumOf,
  isSchemaObject,
  JSON_TYPES,
  jsonTypeOf,
  SchemaReader,
  sameJson,
  typeSet,
  type JsonType,
  type Schema,
} from './schema-view';

/** One difference between two schemas, and the rule that classified it. */
export interface SchemaChange {
  rule: DiffRuleId;
  severity: Severity;
  /** Where in the value, as a JSON pointer (`/tags/*` is every item, `/labels/*` every other key); '' the value itself. */
  path: string;
  /** What changed, e.g. `maximum 100 → 50`. */
  message: string;
  /**
   * For a breaking change, when one was found: a whole value (the tool's arguments, its
   * structured output) that shows it, checked with ajv. Input: valid under the old schema,
   * refused by the new one; a removed default: valid under both, meaning something else now;
   * output: what the new server may return, refused by the old schema.
   */
  witness?: unknown;
}

/** Comparisons past this many pairs reuse what they found for a pair (schemas that share parts in a huge DAG). */
const MAX_PAIRS = 20_000;
/** Deepest nesting compared: unions of merged recursive schemas have no identity to stop on. */
const MAX_DEPTH = 64;

/** Keywords this comparison reads; any other one that changes is `schema-keyword-changed`. */
const COMPARED = new Set([
  'type',
  'enum',
  'const',
  'nullable',
  'anyOf',
  'oneOf',
  'allOf',
  '$ref',
  'properties',
  'required',
  'additionalProperties',
  'minProperties',
  'maxProperties',
  'propertyNames',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'uniqueItems',
  'contains',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'format',
]);

/** The constraints of output schemas, and which way is looser. */
const OUTPUT_CONSTRAINTS: Record<string, 'lower' | 'upper' | 'other'> = {
  minimum: 'lower',
  exclusiveMinimum: 'lower',
  minLength: 'lower',
  minItems: 'lower',
  minProperties: 'lower',
  maximum: 'upper',
  exclusiveMaximum: 'upper',
  maxLength: 'upper',
  maxItems: 'upper',
  maxProperties: 'upper',
  pattern: 'other',
  format: 'other',
  multipleOf: 'other',
  uniqueItems: 'other',
  additionalProperties: 'other',
};

interface Found {
  rule: DiffRuleId;
  path: string;
  message: string;
  /** From the root of the schema the witness is built in (old for inputs, new for outputs). */
  segments: Segment[];
  /** Values for the place `segments` lead to, to be tried as witnesses. */
  candidates?: () => unknown[];
}

interface At {
  path: string;
  segments: Segment[];
}

interface Bound {
  value: number;
  exclusive: boolean;
}

function json(value: unknown): string {
  return value === undefined ? 'none' : canonicalJson(value);
}

function typesText(types: ReadonlySet<JsonType> | undefined): string {
  return types === undefined ? 'any' : types.size === 0 ? 'nothing' : [...types].join(' | ');
}

function num(schema: Record<string, unknown>, key: string): number | undefined {
  return typeof schema[key] === 'number' ? (schema[key] as number) : undefined;
}

function lowerBound(schema: Record<string, unknown>): Bound | undefined {
  const inclusive = num(schema, 'minimum');
  const exclusive = schema.exclusiveMinimum === true ? inclusive : num(schema, 'exclusiveMinimum');
  if (exclusive !== undefined && (inclusive === undefined || exclusive >= inclusive)) return { value: exclusive, exclusive: true };
  return inclusive === undefined ? undefined : { value: inclusive, exclusive: false };
}

function upperBound(schema: Record<string, unknown>): Bound | undefined {
  const inclusive = num(schema, 'maximum');
  const exclusive = schema.exclusiveMaximum === true ? inclusive : num(schema, 'exclusiveMaximum');
  if (exclusive !== undefined && (inclusive === undefined || exclusive <= inclusive)) return { value: exclusive, exclusive: true };
  return inclusive === undefined ? undefined : { value: inclusive, exclusive: false };
}

/** Whether `after` allows less than `before` on its side (lower: a higher bound; upper: a lower one). */
function tighter(before: Bound | undefined, after: Bound | undefined, side: 'lower' | 'upper'): boolean {
  if (after === undefined) return false;
  if (before === undefined) return true;
  if (after.value === before.value) return after.exclusive && !before.exclusive;
  return side === 'lower' ? after.value > before.value : after.value < before.value;
}

function boundText(bound: Bound | undefined, side: 'lower' | 'upper'): string {
  if (bound === undefined) return 'none';
  return `${side === 'lower' ? (bound.exclusive ? '>' : '≥') : bound.exclusive ? '<' : '≤'} ${bound.value}`;
}

function isMultiple(value: number, step: number): boolean {
  return Math.abs(value / step - Math.round(value / step)) < 1e-9;
}

function requiredOf(schema: Record<string, unknown>): Set<string> {
  return new Set(Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === 'string') : []);
}

function propertiesOf(schema: Record<string, unknown>): Record<string, unknown> {
  return isSchemaObject(schema.properties) ? schema.properties : {};
}

function pointerOf(key: string): string {
  return `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** A key no schema of the pair names, for a value that carries one key more. */
function unusedKey(...schemas: Array<Record<string, unknown>>): string {
  const taken = new Set(schemas.flatMap((schema) => Object.keys(propertiesOf(schema))));
  let key = 'extra';
  for (let n = 2; taken.has(key); n++) key = `extra_${n}`;
  return key;
}

/**
 * Compares two schemas of one value, either way: `input` (the new schema must accept what the
 * old one did: a tool's arguments) or `output` (the old schema must accept what the new one
 * allows: a tool's structured content).
 */
class Comparison {
  readonly found: Found[] = [];

  constructor(
    readonly before: SchemaReader,
    readonly after: SchemaReader,
    readonly direction: 'input' | 'output',
    private readonly checker: SchemaChecker,
    // Shared by forks: the pairs being compared up the current path, and every schema's number.
    private readonly shared = { stack: new Set<string>(), done: new Set<string>(), pairs: 0, ids: new WeakMap<object, number>(), nextId: 1 },
  ) {}

  /** The same comparison, collecting into a list of its own (to weigh one union branch against another). */
  fork(): Comparison {
    return new Comparison(this.before, this.after, this.direction, this.checker, this.shared);
  }

  compare(oldGiven: unknown, newGiven: unknown, at: At): void {
    const before = this.before.resolve(oldGiven);
    const after = this.after.resolve(newGiven);
    // A schema no value meets had no client to break.
    if (this.direction === 'input' ? this.empty(this.before, before) : this.empty(this.after, after)) return;
    this.once(before, after, at, () => {
      if (before !== true && after !== true && before !== false && after !== false) this.annotations(before, after, at);
      if (this.direction === 'input') this.unions(before, after, at);
      else this.outputs(before, after, at);
    });
  }

  /** Runs `compare` for a pair unless that pair is being compared further up (recursion: it is compared there). */
  private once(before: Schema, after: Schema, at: At, compare: () => void): void {
    const key = `${this.id(before)}:${this.id(after)}`;
    const { stack, done } = this.shared;
    if (stack.has(key) || at.segments.length > MAX_DEPTH) return;
    if (++this.shared.pairs > MAX_PAIRS) {
      if (done.has(key)) return;
      done.add(key);
    }
    stack.add(key);
    try {
      compare();
    } finally {
      stack.delete(key);
    }
  }

  private id(schema: Schema): number {
    if (typeof schema === 'boolean') return schema ? -1 : -2;
    let id = this.shared.ids.get(schema);
    if (id === undefined) this.shared.ids.set(schema, (id = this.shared.nextId++));
    return id;
  }

  private add(rule: DiffRuleId, at: At, message: string, candidates?: () => unknown[]): void {
    this.found.push({ rule, path: at.path, message, segments: at.segments, candidates });
  }

  private annotations(before: Record<string, unknown>, after: Record<string, unknown>, at: At): void {
    if (!sameJson(before.description, after.description))
      this.add('field-description-changed', at, `description ${json(before.description)} → ${json(after.description)}`);
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    for (const key of keys) {
      if (key === 'description' || key === 'default' || sameJson(before[key], after[key])) continue;
      if (ANNOTATIONS.has(key) || key.startsWith('x-')) {
        if (key !== '$defs' && key !== 'definitions' && key !== '$schema')
          this.add('metadata-changed', at, `${key} ${json(before[key])} → ${json(after[key])}`);
      } else if (!COMPARED.has(key) && !(this.direction === 'output' && key in OUTPUT_CONSTRAINTS)) {
        this.add('schema-keyword-changed', at, `${key} ${json(before[key])} → ${json(after[key])}`);
      }
    }
  }

  // ── inputs ────────────────────────────────────────────────────────────────────────────────

  /** Each alternative the old schema allowed must be met by one of the new schema's, with the fewest breaking changes. */
  private unions(before: Schema, after: Schema, at: At): void {
    const olds = this.before.alternatives(before);
    const news = this.after.alternatives(after);
    if (olds.length === 1 && news.length === 1) return this.node(olds[0], news[0], at);
    const used = new Set<number>();
    olds.forEach((old, index) => {
      if (old === false) return;
      const place: At = olds.length > 1 ? { path: at.path, segments: [...at.segments, { branch: index }] } : at;
      const oldTypes = typeSet(old);
      let best: { index: number; found: Found[]; breaking: number } | undefined;
      news.forEach((candidate, newIndex) => {
        if (candidate === false) return;
        const newTypes = typeSet(candidate);
        if (oldTypes !== undefined && newTypes !== undefined && ![...oldTypes].some((type) => covers(newTypes, type))) return;
        const trial = this.fork();
        trial.once(old, candidate, place, () => trial.node(old, candidate, place));
        const breaking = trial.found.filter((found) => DIFF_RULES[found.rule].severity === 'breaking').length;
        if (best === undefined || breaking < best.breaking) best = { index: newIndex, found: trial.found, breaking };
      });
      if (best === undefined) {
        this.add('input-type-narrowed', place, `${typesText(oldTypes)} is no longer accepted (${typesText(this.unionTypes(news))} now)`, () =>
          this.variants(old),
        );
        return;
      }
      used.add(best.index);
      this.found.push(...best.found);
    });
    const oldTypes = this.unionTypes(olds);
    news.forEach((candidate, index) => {
      if (used.has(index) || candidate === false) return;
      const types = typeSet(candidate);
      if (types === undefined ? oldTypes !== undefined : [...types].some((type) => !covers(oldTypes, type)))
        this.add('input-type-widened', at, `${typesText(types)} is accepted now`);
    });
  }

  private unionTypes(alternatives: readonly Schema[]): Set<JsonType> | undefined {
    const all = new Set<JsonType>();
    for (const alternative of alternatives) {
      const types = typeSet(alternative);
      if (types === undefined) return undefined;
      for (const type of types) all.add(type);
    }
    return all;
  }

  private readonly sampler = new Sampler();

  /** A schema of the old (or the new) document, for the sampler. */
  private side(schema: unknown, document: 'before' | 'after' = 'before'): Side {
    return { reader: document === 'before' ? this.before : this.after, schema };
  }

  private variants(schema: unknown, document: 'before' | 'after' = 'before'): unknown[] {
    return this.sampler.variants(this.side(schema, document));
  }

  private node(oldGiven: Schema, newGiven: Schema, at: At): void {
    if (newGiven === false) {
      this.add('input-type-narrowed', at, 'no value is accepted any more', () => this.variants(oldGiven));
      return;
    }
    const before = oldGiven === true ? {} : (oldGiven as Record<string, unknown>);
    const after = newGiven === true ? {} : newGiven;
    const oldTypes = typeSet(before);
    const newTypes = typeSet(after);
    // Types the old schema allowed (and has a value of) that the new one does not.
    const lost = (
      oldTypes === undefined
        ? newTypes === undefined
          ? []
          : JSON_TYPES.filter((type) => !covers(newTypes, type))
        : [...oldTypes].filter((type) => !covers(newTypes, type))
    ).filter((type) => this.hasValueOf(before, type));
    if (lost.length > 0) {
      this.add('input-type-narrowed', at, `type ${typesText(oldTypes)} → ${typesText(newTypes)}`, () =>
        this.variants(before).filter((value) => lost.some((type) => covers(new Set([type]), typeOfValue(value)))),
      );
    }
    if (oldTypes !== undefined && (newTypes === undefined || [...newTypes].some((type) => !covers(oldTypes, type))))
      this.add('input-type-widened', at, `type ${typesText(oldTypes)} → ${typesText(newTypes)}`);
    const oldValues = enumOf(before);
    // A finite set: each of its values is accepted or not, nothing else to weigh.
    if (oldValues !== undefined) return this.finite(oldValues, after, lost, at);
    this.enums(before, after, at);
    const both = (type: JsonType) => covers(oldTypes, type) && covers(newTypes, type);
    if (both('number') || both('integer')) this.numbers(before, after, at, !both('number'));
    if (both('string')) this.strings(before, after, at);
    if (both('array')) this.arrays(before, after, at);
    if (both('object')) this.objects(before, after, at);
  }

  /** Whether a schema allows a value of `type` (`number`: one that is not an integer). */
  private hasValueOf(schema: Record<string, unknown>, type: JsonType): boolean {
    if (type === 'number') return numberCandidates(schema).some((x) => !Number.isInteger(x) && numberOk(schema, x, false));
    return this.sampler.sample([this.side(schema)], type) !== undefined;
  }

  /** An enum where there was none. */
  private enums(before: Record<string, unknown>, after: Record<string, unknown>, at: At): void {
    const newValues = enumOf(after);
    if (newValues !== undefined) this.add('input-constraint-tightened', at, `only ${json(newValues)} now`, () => this.variants(before));
  }

  /** The old schema allowed a list of values (enum, const): which of them the new one refuses. */
  private finite(oldValues: unknown[], after: Record<string, unknown>, lost: readonly JsonType[], at: At): void {
    const newValues = enumOf(after);
    for (const value of oldValues) {
      // A value of a type no longer accepted is reported with the type.
      if (lost.some((type) => covers(new Set([type]), jsonTypeOf(value)))) continue;
      if (newValues !== undefined && !newValues.some((other) => sameJson(value, other)))
        this.add('input-enum-value-removed', at, `${json(value)} removed`, () => [value]);
      else if (newValues === undefined && !this.accepts(after, value))
        this.add('input-constraint-tightened', at, `${json(value)} is refused now`, () => [value]);
    }
    if (newValues === undefined) this.add('input-constraint-loosened', at, `enum ${json(oldValues)} dropped`);
    else for (const value of newValues) if (!oldValues.some((other) => sameJson(value, other))) this.add('input-enum-value-added', at, `${json(value)} added`);
  }

  /** Whether a schema with no enum accepts a value, as far as its scalar keywords say (formats by ajv). */
  private accepts(schema: Record<string, unknown>, value: unknown): boolean {
    if (typeof value === 'string') {
      if (!stringOk(schema, value, false)) return false;
      return typeof schema.format !== 'string' || this.checker.check({ format: schema.format })?.(value).valid !== false;
    }
    if (typeof value === 'number') return numberOk(schema, value, !covers(typeSet(schema), 'number'));
    return true;
  }

  private numbers(before: Record<string, unknown>, after: Record<string, unknown>, at: At, integers: boolean): void {
    for (const side of ['lower', 'upper'] as const) {
      const bound = (schema: Record<string, unknown>) => {
        const found = (side === 'lower' ? lowerBound : upperBound)(schema);
        // Between integers, < 4 is ≤ 3.
        if (!integers || found === undefined) return found;
        if (side === 'lower') return { value: found.exclusive ? Math.floor(found.value) + 1 : Math.ceil(found.value), exclusive: false };
        return { value: found.exclusive ? Math.ceil(found.value) - 1 : Math.floor(found.value), exclusive: false };
      };
      const was = bound(before);
      const now = bound(after);
      const text = `${side === 'lower' ? 'minimum' : 'maximum'} ${boundText(was, side)} → ${boundText(now, side)}`;
      if (tighter(was, now, side)) this.add('input-constraint-tightened', at, text, () => numberCandidates(before, [now!.value]));
      else if (tighter(now, was, side)) this.add('input-constraint-loosened', at, text);
    }
    const was = num(before, 'multipleOf');
    const now = num(after, 'multipleOf');
    if (now !== undefined && now > 0 && (was === undefined || !isMultiple(was, now)))
      this.add('input-constraint-tightened', at, `multipleOf ${json(was)} → ${now}`, () => numberCandidates(before, [now, was ?? 1]));
    else if (was !== undefined && was !== now) this.add('input-constraint-loosened', at, `multipleOf ${was} → ${json(now)}`);
  }

  private strings(before: Record<string, unknown>, after: Record<string, unknown>, at: At): void {
    const candidates =
      (...lengths: number[]) =>
      () => [...stringCandidates(before, lengths), ...this.variants(before)];
    this.sizes(before, after, at, 'minLength', 'maxLength', (n) => candidates(n));
    for (const key of ['pattern', 'format'] as const) {
      if (after[key] === undefined) {
        if (before[key] !== undefined) this.add('input-constraint-loosened', at, `${key} ${json(before[key])} dropped`);
      } else if (!sameJson(before[key], after[key])) {
        this.add('input-constraint-tightened', at, `${key} ${json(before[key])} → ${json(after[key])}`, candidates());
      }
    }
  }

  /** A pair of size bounds (lengths, item counts, property counts). */
  private sizes(
    before: Record<string, unknown>,
    after: Record<string, unknown>,
    at: At,
    minKey: string,
    maxKey: string,
    candidates: (length: number) => () => unknown[],
  ): void {
    const [oldMin, newMin, oldMax, newMax] = [num(before, minKey), num(after, minKey), num(before, maxKey), num(after, maxKey)];
    if (newMin !== undefined && newMin > (oldMin ?? 0))
      this.add('input-constraint-tightened', at, `${minKey} ${json(oldMin)} → ${newMin}`, candidates(newMin - 1));
    else if (oldMin !== undefined && oldMin > (newMin ?? 0)) this.add('input-constraint-loosened', at, `${minKey} ${oldMin} → ${json(newMin)}`);
    if (newMax !== undefined && (oldMax === undefined || newMax < oldMax))
      this.add('input-constraint-tightened', at, `${maxKey} ${json(oldMax)} → ${newMax}`, candidates(newMax + 1));
    else if (oldMax !== undefined && (newMax === undefined || newMax > oldMax))
      this.add('input-constraint-loosened', at, `${maxKey} ${oldMax} → ${json(newMax)}`);
  }

  private arrays(before: Record<string, unknown>, after: Record<string, unknown>, at: At): void {
    // Unique items of a finite kind (booleans, an enum): no list is longer than there are values.
    const values = before.uniqueItems === true ? this.domainSize(this.before, before.items ?? true) : Infinity;
    if (values < (num(before, 'maxItems') ?? Infinity)) before = { ...before, maxItems: values };
    const lists = (length: number) => [false, true].map((repeat) => this.sampler.arrayOf(this.side(before), length, repeat)).filter(Array.isArray);
    const arrays = (length: number) => () => [...lists(length), ...this.variants(before)];
    this.sizes(before, after, at, 'minItems', 'maxItems', arrays);
    this.uniqueItems(before, after, at, lists);
    // An array that may hold no item has no item to compare.
    if (num(before, 'maxItems') === 0) return;
    this.items(before, after, at);
    this.addedKeyword('contains', before, after, at);
  }

  /** uniqueItems added or dropped (`lists`: lists of a length the old schema allows, repeating an item or not). */
  private uniqueItems(before: Record<string, unknown>, after: Record<string, unknown>, at: At, lists: (length: number) => unknown[][]): void {
    // At most one item: nothing to repeat.
    if ((num(before, 'maxItems') ?? 2) < 2) return;
    if (after.uniqueItems === true && before.uniqueItems !== true) {
      const atLeast = Math.max(2, num(before, 'minItems') ?? 0);
      this.add('input-constraint-tightened', at, 'uniqueItems added', () => lists(atLeast));
    } else if (before.uniqueItems === true && after.uniqueItems !== true) this.add('input-constraint-loosened', at, 'uniqueItems dropped');
  }

  /** The items of an array: each place of a tuple (`prefixItems`), then every other item. */
  private items(before: Record<string, unknown>, after: Record<string, unknown>, at: At): void {
    const oldPrefix = Array.isArray(before.prefixItems) ? before.prefixItems : [];
    const newPrefix = Array.isArray(after.prefixItems) ? after.prefixItems : [];
    for (let index = 0; index < Math.max(oldPrefix.length, newPrefix.length); index++)
      this.compare(oldPrefix[index] ?? before.items ?? true, newPrefix[index] ?? after.items ?? true, {
        path: `${at.path}/${index}`,
        segments: [...at.segments, { item: index }],
      });
    if (before.items !== undefined || after.items !== undefined)
      this.compare(before.items ?? true, after.items ?? true, { path: `${at.path}/*`, segments: [...at.segments, { item: 'each' }] });
  }

  /** A keyword whose schema is not compared (`contains`, `propertyNames`): added tightens, dropped loosens, changed is reported as such. */
  private addedKeyword(key: 'contains' | 'propertyNames', before: Record<string, unknown>, after: Record<string, unknown>, at: At): void {
    if (after[key] !== undefined && !sameJson(before[key], after[key])) {
      if (before[key] === undefined) this.add('input-constraint-tightened', at, `${key} added`, () => this.variants(before));
      else this.add('schema-keyword-changed', at, `${key} ${json(before[key])} → ${json(after[key])}`);
    } else if (before[key] !== undefined && after[key] === undefined) this.add('input-constraint-loosened', at, `${key} dropped`);
  }

  /**
   * Whether no value meets a schema, as far as its keywords plainly say: `false`, bounds that
   * cross, unique items of a kind with fewer values than minItems, a required property no value
   * meets (patterns and formats are not read: such a schema counts as having values).
   */
  private empty(reader: SchemaReader, given: unknown, depth = 0): boolean {
    if (depth > 8) return false;
    return reader.alternatives(given).every((alternative) => {
      if (alternative === false) return true;
      if (alternative === true) return false;
      const types = typeSet(alternative);
      if (types !== undefined && types.size === 0) return true;
      const crossed = (low: string, high: string) => (num(alternative, low) ?? -Infinity) > (num(alternative, high) ?? Infinity);
      if (types?.size !== 1) return false;
      if (types.has('string')) return crossed('minLength', 'maxLength');
      if (types.has('number') || types.has('integer')) return crossed('minimum', 'maximum');
      if (types.has('array')) {
        const items = alternative.items ?? true;
        const atLeast = num(alternative, 'minItems') ?? 0;
        if (crossed('minItems', 'maxItems') || (atLeast > 0 && this.empty(reader, items, depth + 1))) return true;
        return alternative.uniqueItems === true && this.domainSize(reader, items) < atLeast;
      }
      if (types.has('object')) {
        const properties = propertiesOf(alternative);
        return [...requiredOf(alternative)].some((name) =>
          name in properties ? this.empty(reader, properties[name], depth + 1) : alternative.additionalProperties === false,
        );
      }
      return false;
    });
  }

  /** How many values a schema allows, when that is a small finite number (else Infinity). */
  private domainSize(reader: SchemaReader, schema: unknown): number {
    let size = 0;
    for (const alternative of reader.alternatives(schema)) {
      if (alternative === false) continue;
      const values = enumOf(alternative);
      const types = typeSet(alternative);
      if (values) size += values.length;
      else if (types && [...types].every((type) => type === 'boolean' || type === 'null')) size += types.size === 2 ? 3 : types.has('boolean') ? 2 : 1;
      else return Infinity;
    }
    return size;
  }

  private objects(before: Record<string, unknown>, after: Record<string, unknown>, at: At): void {
    const minimal = () => this.sampler.sample([this.side(before)], 'object')?.value as Record<string, unknown> | undefined;
    // The rest of a witness: met by both versions, so that it is refused for this change alone.
    const rest = (without?: string) => [this.sampler.objectOf([this.side(before), this.side(after, 'after')], without), minimal()].filter(isSchemaObject);
    const oldProperties = propertiesOf(before);
    const newProperties = propertiesOf(after);
    const oldRequired = requiredOf(before);
    const newRequired = requiredOf(after);
    const closed = after.additionalProperties === false;
    for (const [name, schema] of Object.entries(oldProperties)) {
      const place: At = { path: `${at.path}${pointerOf(name)}`, segments: [...at.segments, { property: name }] };
      const withIt = () => rest(name).flatMap((base) => this.variants(schema).map((value) => ({ ...base, [name]: value })));
      if (!(name in newProperties)) {
        if (this.empty(this.before, schema)) continue;
        const rest = after.additionalProperties;
        let refused = closed;
        if (isSchemaObject(rest)) {
          const trial = this.fork();
          trial.compare(schema, rest, place);
          refused = trial.found.some((found) => DIFF_RULES[found.rule].severity === 'breaking');
        }
        // Shown by a whole object that carries it.
        if (refused) this.add('input-removed', { path: place.path, segments: at.segments }, `${name} removed; sending it is refused now`, withIt);
        else this.add('input-no-longer-read', place, `${name} removed; clients may still send it, and it is ignored`);
        continue;
      }
      this.compare(schema, newProperties[name], place);
      this.defaults(name, this.before.resolve(schema), this.after.resolve(newProperties[name]), newRequired.has(name), place, () =>
        rest(name).filter((value) => !(name in value)),
      );
    }
    for (const name of newRequired) {
      if (oldRequired.has(name)) continue;
      const place: At = { path: `${at.path}${pointerOf(name)}`, segments: at.segments };
      this.add('input-required-added', place, name in oldProperties ? `${name} is required now` : `new required input ${name}`, () => [
        ...rest(name).filter((value) => !(name in value)),
        ...this.variants(before).filter((option) => isSchemaObject(option) && !(name in option)),
      ]);
    }
    for (const name of oldRequired)
      if (!newRequired.has(name) && name in newProperties)
        this.add('input-constraint-loosened', { ...at, path: `${at.path}${pointerOf(name)}` }, `${name} is optional now`);
    for (const name of Object.keys(newProperties))
      if (!(name in oldProperties) && !newRequired.has(name))
        this.add('input-optional-added', { ...at, path: `${at.path}${pointerOf(name)}` }, `new optional input ${name}`);
    this.rest(before, after, at, rest);
    this.sizes(before, after, at, 'minProperties', 'maxProperties', () => () => this.variants(before));
    this.addedKeyword('propertyNames', before, after, at);
  }

  /** additionalProperties: what keys beyond `properties` may hold. */
  private rest(before: Record<string, unknown>, after: Record<string, unknown>, at: At, bases: () => Array<Record<string, unknown>>): void {
    const was = before.additionalProperties ?? true;
    const now = after.additionalProperties ?? true;
    const key = unusedKey(before, after);
    if (now === false && was !== false) {
      this.add('input-constraint-tightened', at, 'additionalProperties closed', () =>
        bases().flatMap((base) => this.variants(was).map((value) => ({ ...base, [key]: value }))),
      );
    } else if (was === false && now !== false) this.add('input-constraint-loosened', at, 'additionalProperties opened');
    else if (was !== false && now !== false && (isSchemaObject(was) || isSchemaObject(now)))
      this.compare(was, now, { path: `${at.path}/*`, segments: [...at.segments, { additional: key }] });
  }

  /** A field's default, which only means something where the field may be left out. */
  private defaults(name: string, before: Schema, after: Schema, requiredNow: boolean, at: At, without: () => Array<Record<string, unknown>>): void {
    const was = isSchemaObject(before) && 'default' in before ? { value: before.default } : undefined;
    const now = isSchemaObject(after) && 'default' in after ? { value: after.default } : undefined;
    if (requiredNow || (was === undefined && now === undefined) || (was && now && sameJson(was.value, now.value))) return;
    const parent: At = { path: at.path, segments: at.segments.slice(0, -1) };
    if (was && !now) this.add('input-default-removed', parent, `default ${json(was.value)} of ${name} removed`, without);
    else if (was && now) this.add('input-default-changed', parent, `default of ${name} ${json(was.value)} → ${json(now.value)}`);
    else this.add('input-default-added', parent, `default of ${name}: ${json(now!.value)}`);
  }

  // ── outputs ───────────────────────────────────────────────────────────────────────────────

  private outputs(before: Schema, after: Schema, at: At): void {
    const olds = this.before.alternatives(before);
    const news = this.after.alternatives(after);
    const newTypes = this.unionTypes(news);
    this.outputTypes(this.unionTypes(olds), newTypes, after, at);
    this.outputValues(olds.length === 1 ? enumOf(olds[0]) : undefined, news.length === 1 ? enumOf(news[0]) : undefined, after, at);
    if (olds.length === 1 && news.length === 1 && isSchemaObject(olds[0]) && isSchemaObject(news[0])) this.outputConstraints(olds[0], news[0], at);
    const oldObject = olds.find((schema) => isSchemaObject(schema) && covers(typeSet(schema), 'object'));
    const newObject = news.find((schema) => isSchemaObject(schema) && covers(typeSet(schema), 'object'));
    if (isSchemaObject(oldObject) && isSchemaObject(newObject) && covers(newTypes, 'object'))
      this.outputFields(oldObject, newObject, at, news.indexOf(newObject), news.length);
    this.outputItems(olds, news, at);
  }

  /** Types the new schema may return that the old did not (a client's parser meets them), or types it returns no more. */
  private outputTypes(oldTypes: Set<JsonType> | undefined, newTypes: Set<JsonType> | undefined, after: Schema, at: At): void {
    const gained =
      newTypes === undefined
        ? oldTypes === undefined
          ? []
          : JSON_TYPES.filter((type) => !covers(oldTypes, type))
        : [...newTypes].filter((type) => !covers(oldTypes, type));
    if (gained.length > 0)
      this.add('output-type-changed', at, `type ${typesText(oldTypes)} → ${typesText(newTypes)}`, () =>
        this.variants(after, 'after').filter((value) => gained.some((type) => covers(new Set([type]), typeOfValue(value)))),
      );
    else if (oldTypes !== undefined ? newTypes === undefined || newTypes.size < oldTypes.size : newTypes !== undefined)
      this.add('output-type-narrowed', at, `type ${typesText(oldTypes)} → ${typesText(newTypes)}`);
  }

  /** An output that is one of a list of values (enum, const), before or after. */
  private outputValues(oldValues: unknown[] | undefined, newValues: unknown[] | undefined, after: Schema, at: At): void {
    if (newValues === undefined && oldValues === undefined) return;
    const added = newValues === undefined ? undefined : newValues.filter((value) => !(oldValues ?? [value]).some((other) => sameJson(value, other)));
    if (added === undefined) this.add('output-type-changed', at, `enum ${json(oldValues)} dropped`, () => this.variants(after, 'after'));
    else for (const value of added) this.add('output-type-changed', at, `${json(value)} may be returned now`, () => [value]);
    for (const value of oldValues ?? [])
      if (newValues !== undefined && !newValues.some((other) => sameJson(value, other)))
        this.add('output-type-narrowed', at, `${json(value)} is no longer returned`);
  }

  /** The items of the array alternative of each side. */
  private outputItems(olds: readonly Schema[], news: readonly Schema[], at: At): void {
    const oldArray = olds.find((schema) => isSchemaObject(schema) && covers(typeSet(schema), 'array')) as Record<string, unknown> | undefined;
    const newArray = news.find((schema) => isSchemaObject(schema) && covers(typeSet(schema), 'array')) as Record<string, unknown> | undefined;
    if (!oldArray || !newArray || (oldArray.items === undefined && newArray.items === undefined)) return;
    const branch = news.length > 1 ? [{ branch: news.indexOf(newArray) }] : [];
    this.compare(oldArray.items ?? true, newArray.items ?? true, { path: `${at.path}/*`, segments: [...at.segments, ...branch, { item: 'each' }] });
  }

  private outputFields(before: Record<string, unknown>, after: Record<string, unknown>, at: At, branch: number, branches: number): void {
    const here: Segment[] = branches > 1 ? [...at.segments, { branch }] : at.segments;
    const minimal = () => this.sampler.sample([this.side(after, 'after')], 'object')?.value as Record<string, unknown> | undefined;
    const oldProperties = propertiesOf(before);
    const newProperties = propertiesOf(after);
    const oldRequired = requiredOf(before);
    const newRequired = requiredOf(after);
    for (const [name, schema] of Object.entries(oldProperties)) {
      const place: At = { path: `${at.path}${pointerOf(name)}`, segments: [...here, { property: name }] };
      // A field that is gone is shown by the whole object without it.
      const gone: At = { path: place.path, segments: here };
      const without = () =>
        [this.sampler.objectOf([this.side(after, 'after'), this.side(before)], name), minimal()].filter((value) => isSchemaObject(value) && !(name in value));
      if (!(name in newProperties)) {
        this.add('output-field-removed', gone, `${name} removed`, oldRequired.has(name) ? without : undefined);
        continue;
      }
      if (oldRequired.has(name) && !newRequired.has(name)) this.add('output-field-removed', gone, `${name} may be absent now`, without);
      this.compare(schema, newProperties[name], place);
    }
    for (const name of Object.keys(newProperties))
      if (!(name in oldProperties)) this.add('output-field-added', { path: `${at.path}${pointerOf(name)}`, segments: here }, `${name} added`);
  }

  private outputConstraints(before: Record<string, unknown>, after: Record<string, unknown>, at: At): void {
    for (const [key, side] of Object.entries(OUTPUT_CONSTRAINTS)) {
      const was = before[key];
      const now = after[key];
      if (sameJson(was, now) || (key === 'additionalProperties' && (isSchemaObject(was) || isSchemaObject(now)))) continue;
      const looser =
        now === undefined ||
        (side === 'lower' && typeof was === 'number' && typeof now === 'number' && now < was) ||
        (side === 'upper' && typeof was === 'number' && typeof now === 'number' && now > was) ||
        (side === 'other' && was !== undefined) ||
        (key === 'additionalProperties' && now === true);
      const text = `${key} ${json(was)} → ${json(now)}`;
      if (looser && was !== undefined) this.add('output-constraint-loosened', at, text);
      else this.add('output-type-narrowed', at, text);
    }
  }
}

function typeOfValue(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

/** Most candidates tried per change: each costs two validations. */
const MAX_CANDIDATES = 200;

/** The places segments lead to in a value, as a pattern of JSON pointers (every item of an array for `each`), and under them. */
function placeOf(segments: readonly Segment[]): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  let place = '';
  for (const segment of segments) {
    if ('property' in segment) place += escape(pointerOf(segment.property));
    else if ('additional' in segment) place += escape(pointerOf(segment.additional));
    else if ('item' in segment) place += segment.item === 'each' ? '/\\d+' : `/${segment.item}`;
  }
  return new RegExp(`^${place}(?:/.*)?$`);
}

interface Witnessing {
  comparison: Comparison;
  roots: { before: unknown; after: unknown };
  checks: { before?: SchemaCheck; after?: SchemaCheck };
}

/**
 * A whole value that shows a change: valid on the side that allowed it, refused on the other for
 * this change only (every failure at or under its place), or, for a removed default, valid on both.
 */
function witnessFor(found: Found, { comparison, roots, checks }: Witnessing, sampler: Sampler): { value: unknown } | undefined {
  if (!found.candidates || !checks.before || !checks.after) return undefined;
  const output = comparison.direction === 'output';
  const allows = output ? checks.after : checks.before;
  const refuses = output ? checks.before : checks.after;
  const primary: Side = output ? { reader: comparison.after, schema: roots.after } : { reader: comparison.before, schema: roots.before };
  const other: Side = output ? { reader: comparison.before, schema: roots.before } : { reader: comparison.after, schema: roots.after };
  const place = placeOf(found.segments);
  const seen = new Set<string>();
  // Refused here and nowhere else, best; refused here among other places (another breaking
  // change may leave no value that the new schema refuses for this one alone), else.
  let fallback: { value: unknown } | undefined;
  for (const candidate of found.candidates()) {
    const key = canonicalJson(candidate);
    if (seen.has(key)) continue;
    seen.add(key);
    if (seen.size > MAX_CANDIDATES) break;
    for (const sides of [[primary, other], [primary]]) {
      const whole = sampler.embed(sides, found.segments, candidate);
      if (whole === undefined || !allows(whole.value).valid) continue;
      const verdict = refuses(whole.value);
      if (found.rule === 'input-default-removed') {
        if (verdict.valid) return whole;
        continue;
      }
      if (verdict.valid) continue;
      if (verdict.failures.every((at) => place.test(at))) return whole;
      if (verdict.failures.some((at) => place.test(at))) fallback ??= whole;
    }
  }
  return fallback;
}

function run(direction: 'input' | 'output', before: unknown, after: unknown, checker: SchemaChecker): SchemaChange[] {
  const comparison = new Comparison(new SchemaReader(before), new SchemaReader(after), direction, checker);
  comparison.compare(before, after, { path: '', segments: [] });
  let checks: Witnessing['checks'] | undefined;
  const sampler = new Sampler();
  const changes: SchemaChange[] = [];
  const seen = new Set<string>();
  for (const found of comparison.found) {
    // The same difference reached twice (a shared $defs entry compared from one place) is one change.
    const key = `${found.rule}\0${found.path}\0${found.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const severity = DIFF_RULES[found.rule].severity;
    const change: SchemaChange = { rule: found.rule, severity, path: found.path, message: found.message };
    if (severity === 'breaking' && found.candidates) {
      checks ??= { before: checker.check(before), after: checker.check(after) };
      const witness = witnessFor(found, { comparison, roots: { before, after }, checks }, sampler);
      if (witness) change.witness = witness.value;
    }
    changes.push(change);
  }
  return changes;
}

/**
 * How the arguments a tool accepts changed: every change classified, a breaking one with a
 * witness where one was found (a value the old schema accepted and the new one refuses).
 * `$ref`/`$defs`, `anyOf`/`oneOf`, nullable types and recursion are understood.
 *
 * @example
 * compareInputSchemas({ type: 'object', properties: { n: { type: 'integer', maximum: 100 } } },
 *                     { type: 'object', properties: { n: { type: 'integer', maximum: 50 } } });
 * // [{ rule: 'input-constraint-tightened', severity: 'breaking', path: '/n', message: 'maximum ≤ 100 → ≤ 50', witness: { n: 51 } }]
 */
export function compareInputSchemas(before: unknown, after: unknown, checker = new SchemaChecker()): SchemaChange[] {
  return run('input', before, after, checker);
}

/**
 * How what a tool returns changed: a field removed or made optional, a type that allows values
 * the old schema did not (breaking, with a value the new server may return that the old schema
 * refuses); added fields and narrower types are safe.
 */
export function compareOutputSchemas(before: unknown, after: unknown, checker = new SchemaChecker()): SchemaChange[] {
  return run('output', before, after, checker);
}
