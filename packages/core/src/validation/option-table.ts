/**
 * One declarative table per public options object (`createApp`, the HTTP endpoint, `serveHttp`,
 * `serveStdio`): every option's type, range or allowed values, and its default. `readOptions`
 * checks a given object against it once, at start-up, and applies the defaults, so the rules,
 * the defaults and the messages live in one place per options object.
 *
 * A table, not a JSON Schema: options hold functions, class instances and stores, which JSON
 * Schema can only wave through, and each message must name the option in our words.
 */

/** What one option accepts. `default` is applied by `readOptions`; `defaultText` only documents a computed default. */
export type OptionRule =
  /** `unit: 'ms'` marks a duration (see `duration`): its message says the bound in ms and days. */
  (
    | { readonly type: 'integer'; readonly min?: number; readonly max?: number; readonly unit?: 'ms' }
    | { readonly type: 'number'; readonly above?: number; readonly max?: number; readonly unit?: 'ms' }
    | { readonly type: 'boolean' }
    | { readonly type: 'string'; readonly nonEmpty?: boolean }
    | { readonly type: 'enum'; readonly values: readonly string[] }
    | { readonly type: 'function' }
    | { readonly type: 'strings' }
    | { readonly type: 'array' }
    /** An object; with `methods`, one that has them (a store, a logger); with `table`, its own options, checked the same way. */
    | { readonly type: 'object'; readonly methods?: readonly string[]; readonly table?: OptionTableOf }
    /** A value accepted when any of the rules accepts it (`boolean | { … }`). */
    | { readonly type: 'anyOf'; readonly rules: readonly OptionRule[] }
    /** A value `test` accepts, described by `expected` (a map of scopes, a list of guards …). */
    | { readonly type: 'custom'; readonly expected: string; readonly test: (value: unknown) => boolean }
  ) & {
    readonly required?: boolean;
    readonly default?: unknown;
    readonly defaultText?: string;
  };

/** The old name of a renamed option: accepted for one release, with a warning. */
export interface OptionAlias {
  readonly alias: string;
}

/** Any option table, whatever options object it describes. */
export type OptionTableOf = Readonly<Record<string, OptionRule | OptionAlias>>;

/** Every option of `T` (old names included), each with its rule or the name that replaced it. */
export type OptionTable<T> = { readonly [K in keyof T]-?: OptionRule | OptionAlias };

/** The options of a table that have a default (never undefined once read). */
export type DefaultedKeys<Table> = { [K in keyof Table]: Table[K] extends { readonly default: unknown } ? K : never }[keyof Table];
/** The old names of a table (folded into their new names once read). */
export type AliasKeys<Table> = { [K in keyof Table]: Table[K] extends OptionAlias ? K : never }[keyof Table];
/** The options of a table that are option objects with a table of their own. */
export type NestedKeys<Table> = { [K in keyof Table]: Table[K] extends { readonly table: object } ? K : never }[keyof Table];
/** One option's value once read: a nested option object is read by its own table. */
export type ReadValue<V, Rule> = Rule extends { readonly type: 'object'; readonly table: infer Sub } ? ReadOptions<V, Sub> : V;

/**
 * The options once read: old names folded into the new, the options with a default never
 * undefined, and nested option objects read the same way.
 */
export type ReadOptions<T, Table> = Omit<T, (DefaultedKeys<Table> | AliasKeys<Table> | NestedKeys<Table>) & keyof T> & {
  [K in DefaultedKeys<Table> & keyof T]-?: ReadValue<Exclude<T[K], undefined>, Table[K]>;
} & {
  [K in Exclude<NestedKeys<Table>, DefaultedKeys<Table>> & keyof T]?: ReadValue<Exclude<T[K], undefined>, Table[K]>;
};

/** How `readOptions` reports: who is reading (`createApp`), how it fails (the caller's error class), where it warns. */
export interface OptionsReader {
  readonly label: string;
  /** The error to throw: `problem` names the option and what is wrong; `hint` says what to give instead. */
  readonly fail: (problem: string, hint: string) => Error;
  readonly warn?: (message: string) => void;
}

const warned = new Set<string>();

/** The longest delay Node's timers keep (2^31 − 1 ms, about 24.8 days): a longer one fires after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;

/** A duration rule before its timer bound: an integer with a minimum, or a number above a bound. */
export type DurationSpec =
  { readonly type?: 'integer'; readonly min?: number; readonly above?: never } | { readonly type: 'number'; readonly above?: number; readonly min?: never };

/**
 * The rule of an option in ms that feeds a timer: an integer (or, with `type: 'number'`, any
 * number) no longer than `MAX_TIMER_MS`, since Node fires a longer timer at once.
 *
 * @example
 * const SERVE_OPTIONS = { shutdownGraceMs: duration({ min: 0, default: 2_000 }) } as const satisfies OptionTable<ServeOptions>;
 */
export function duration<const Spec extends DurationSpec & { readonly default?: number; readonly defaultText?: string; readonly required?: boolean }>(
  spec: Spec,
): Spec & { readonly type: Spec['type'] extends 'number' ? 'number' : 'integer'; readonly max: 2_147_483_647; readonly unit: 'ms' } {
  return { ...spec, type: spec.type ?? 'integer', max: MAX_TIMER_MS, unit: 'ms' } as never;
}

/** The `TypeError` the transports throw for a wrong option: the problem, then what to give. */
export function optionTypeError(problem: string, hint: string): TypeError {
  return new TypeError(`${problem}${problem.endsWith('?') ? '' : '.'} ${hint}`);
}

/** Whether `value` looks like the app `createApp` makes (an object with `connect()`). */
export function isApp(value: unknown): boolean {
  return isPlainObject(value) && typeof value.connect === 'function';
}

/**
 * Throws a `TypeError` unless `app`, the first argument of `label` (`serveHttp`), is an app made
 * by `createApp`: checked before its options, whose warnings go to the app's logger.
 */
export function assertApp(label: string, app: unknown): void {
  if (!isApp(app)) {
    throw optionTypeError(
      `${label}: the first argument must be the app made by createApp (got ${shown(app)})`,
      `Call ${label}(createApp({ name, version, providers }), options).`,
    );
  }
}

/**
 * Checks `given` against `table` and applies its defaults: an unknown option (with a "did you
 * mean" when one is close), a wrong type or a value out of range throws `reader.fail`, naming the
 * option; an old name is taken for its new one, with one warning per process.
 *
 * @example
 * const options = readOptions(APP_OPTIONS, given, { label: 'createApp', fail: (problem) => new TypeError(problem) });
 */
export function readOptions<T extends object, const Table extends OptionTable<T>>(table: Table, given: T, reader: OptionsReader): ReadOptions<T, Table> {
  if (!isPlainObject(given)) fail(reader, `the options must be an object (got ${shown(given)})`, `Pass { ${requiredNames(table as OptionTableOf)} }.`);
  return readTable(table as OptionTableOf, given as Record<string, unknown>, reader, '') as ReadOptions<T, Table>;
}

function readTable(table: OptionTableOf, given: Record<string, unknown>, reader: OptionsReader, prefix: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // Own properties only: what Object.prototype holds (polluted or not) is no option.
  const own = (key: string): unknown => (Object.hasOwn(given, key) ? given[key] : undefined);
  for (const key of Object.keys(given)) {
    if (given[key] === undefined || Object.hasOwn(table, key)) continue;
    const current = Object.keys(table).filter((name) => !('alias' in table[name]));
    const close = suggestion(key, current);
    const options = prefix === '' ? `the options of ${reader.label}` : `the options of "${prefix.slice(0, -1)}"`;
    fail(
      reader,
      `option "${prefix}${key}" is unknown${close === undefined ? '' : `; did you mean "${prefix}${close}"?`}`,
      close === undefined ? `Remove it: ${options} are ${current.join(', ')}.` : `Rename it "${close}".`,
    );
  }
  for (const [key, entry] of Object.entries(table)) {
    if ('alias' in entry) continue;
    const oldName = Object.keys(table).find((name) => (table[name] as Partial<OptionAlias>).alias === key && own(name) !== undefined);
    let name = key;
    let value = own(key);
    if (oldName !== undefined) {
      if (value !== undefined) {
        fail(
          reader,
          `options "${prefix}${oldName}" and "${prefix}${key}" are both given: "${prefix}${oldName}" is the deprecated name of "${prefix}${key}"`,
          `Give only "${key}".`,
        );
      }
      deprecated(reader, prefix + oldName, prefix + key);
      name = oldName;
      value = own(oldName);
    }
    if (value === undefined) {
      if (entry.required) fail(reader, `option "${prefix}${key}" is required: ${expected(entry)}`, hintOf(entry, key));
      if (entry.type === 'object' && entry.table !== undefined && entry.default !== undefined) {
        out[key] = readTable(entry.table, entry.default as Record<string, unknown>, reader, `${prefix}${key}.`);
      } else if (entry.default !== undefined) out[key] = entry.default;
      continue;
    }
    out[key] = checkValue(entry, value, reader, prefix + name);
  }
  return out;
}

function requiredNames(table: OptionTableOf): string {
  return Object.keys(table)
    .filter((key) => (table[key] as OptionRule).required)
    .join(', ');
}

function checkValue(rule: OptionRule, value: unknown, reader: OptionsReader, name: string): unknown {
  if ((rule.type === 'integer' || rule.type === 'number') && rule.unit === 'ms' && rule.max !== undefined && typeof value === 'number' && value > rule.max) {
    fail(
      reader,
      `option "${name}" must be ≤ ${rule.max} ms (about ${Math.floor(rule.max / 8_640_000) / 10} days) (got ${shown(value)})`,
      `Node's timers fire a longer delay at once; ${hintOf(rule, name).replace(/^Give/, 'give')}`,
    );
  }
  if (!accepts(rule, value)) fail(reader, `option "${name}" must be ${expected(rule)} (got ${shown(value)})`, hintOf(rule, name));
  if (rule.type === 'object' && rule.table !== undefined) return readTable(rule.table, value as Record<string, unknown>, reader, `${name}.`);
  if (rule.type === 'anyOf') {
    const nested = rule.rules.find((inner) => inner.type === 'object' && inner.table !== undefined && accepts(inner, value));
    if (nested) return checkValue(nested, value, reader, name);
  }
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function acceptsNumber(rule: Extract<OptionRule, { type: 'integer' | 'number' }>, value: unknown): boolean {
  const n = value as number;
  if (rule.type === 'number') return Number.isFinite(value) && (rule.above === undefined || n > rule.above) && (rule.max === undefined || n <= rule.max);
  return Number.isSafeInteger(value) && (rule.min === undefined || n >= rule.min) && (rule.max === undefined || n <= rule.max);
}

function accepts(rule: OptionRule, value: unknown): boolean {
  switch (rule.type) {
    case 'integer':
    case 'number':
      return acceptsNumber(rule, value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string' && (!rule.nonEmpty || value.length > 0);
    case 'enum':
      return typeof value === 'string' && rule.values.includes(value);
    case 'function':
      return typeof value === 'function';
    case 'strings':
      return Array.isArray(value) && value.every((item) => typeof item === 'string');
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value) && (rule.methods ?? []).every((method) => typeof value[method] === 'function');
    case 'anyOf':
      return rule.rules.some((inner) => accepts(inner, value));
    case 'custom':
      return rule.test(value);
  }
}

/** What a rule accepts, in words: "an integer ≥ 1", `one of "auto", "json"` … */
export function expected(rule: OptionRule): string {
  switch (rule.type) {
    case 'integer':
    case 'number':
      return expectedNumber(rule);
    case 'boolean':
      return 'true or false';
    case 'string':
      return rule.nonEmpty ? 'a non-empty string' : 'a string';
    case 'enum':
      return `one of ${rule.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'function':
      return 'a function';
    case 'strings':
      return 'an array of strings';
    case 'array':
      return 'an array';
    case 'object':
      return rule.methods?.length ? `an object with ${listed(rule.methods.map((method) => `${method}()`))}` : 'an object';
    case 'anyOf':
      return rule.rules.map(expected).join(' or ');
    case 'custom':
      return rule.expected;
  }
}

function expectedNumber(rule: Extract<OptionRule, { type: 'integer' | 'number' }>): string {
  const [noun, low] =
    rule.type === 'integer'
      ? ['an integer', rule.min === undefined ? undefined : `≥ ${rule.min}`]
      : ['a number', rule.above === undefined ? undefined : `> ${rule.above}`];
  if (rule.type === 'integer' && rule.min !== undefined && rule.max !== undefined) return `an integer from ${rule.min} to ${rule.max}`;
  if (low !== undefined && rule.max !== undefined) return `${noun} ${low} and ≤ ${rule.max}`;
  if (low !== undefined) return `${noun} ${low}`;
  if (rule.max !== undefined) return `${noun} ≤ ${rule.max}`;
  return rule.type === 'integer' ? 'an integer' : 'a finite number';
}

/** `a`, `a and b`, `a, b and c`. */
function listed(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return String(value);
}

function fail(reader: OptionsReader, problem: string, hint: string): never {
  throw reader.fail(`${reader.label}: ${problem}`, hint);
}

function hintOf(rule: OptionRule, name: string): string {
  const fallback = rule.default !== undefined ? JSON.stringify(rule.default) : rule.defaultText;
  return `Give ${expected(rule)}${rule.required || fallback === undefined ? '' : `, or leave "${name}" out for the default (${fallback})`}.`;
}

function deprecated(reader: OptionsReader, oldName: string, newName: string): void {
  const key = `${reader.label}\0${oldName}`;
  if (warned.has(key)) return;
  warned.add(key);
  reader.warn?.(`${reader.label}: option "${oldName}" is deprecated and will be removed in the next release; use "${newName}"`);
}

/** The known option within two edits (or a change of case) of `name`, the closest first. */
function suggestion(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const distance = candidate.toLowerCase() === name.toLowerCase() ? 0 : editDistance(name, candidate, bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance, or `limit` when it is at least that. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return Math.min(previous[b.length], limit);
}

/** Forgets which deprecated names were warned about (for specs). */
export function resetOptionWarnings(): void {
  warned.clear();
}

/**
 * The options of a table with their rules, old names left out, for table-driven specs.
 *
 * @example
 * it.each(ruleEntries(HTTP_OPTIONS))('refuses a wrong %s', (name, rule) => …);
 */
export function ruleEntries(table: OptionTableOf): Array<[string, OptionRule]> {
  return Object.entries(table).filter((entry): entry is [string, OptionRule] => !('alias' in entry[1]));
}

/** A value `rule` refuses, for table-driven specs that give every option a wrong value. */
export function wrongValue(rule: OptionRule): unknown {
  switch (rule.type) {
    case 'integer':
      return rule.min !== undefined ? rule.min - 3 : 1.5;
    case 'number':
      return rule.above !== undefined ? rule.above - 3 : Number.NaN;
    case 'boolean':
    case 'function':
    case 'strings':
    case 'array':
      return 'yes';
    case 'string':
      return rule.nonEmpty ? '' : 42;
    case 'enum':
    case 'object':
      return 42;
    case 'custom':
    case 'anyOf':
      return Symbol('wrong');
  }
}
