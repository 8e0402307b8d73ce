import { AJV_FORMAT_NAMES } from '../schema/check-field-options';

/**
 * Whether a schema a user wrote is valid JSON Schema 2020-12 for ajv, told without loading ajv:
 * true only when every keyword in it is one whose rules this file checks exactly as the
 * meta-schema and ajv's compiler do (the common ones: `type`, bounds, `pattern`, `enum`,
 * `anyOf`, `properties`, `items`, annotations, `x-…`). False means "not known here", never
 * "invalid": the caller then asks ajv, which says why. Loading ajv and compiling the 2020-12
 * meta-schema cost ~200 ms of CPU at start-up, for a check a raw `@Field({ schema })` part of a
 * few keywords passes anyway; a tool's first call loads ajv as it did before.
 *
 * Never accepts what ajv's `compile` (as the validator factory configures it: `strict: false`,
 * ajv-formats) would refuse; validator.spec checks each kind of refusal against ajv itself.
 */
export function isKnownValidSchema(schema: unknown): boolean {
  return knownSchema(schema, 0);
}

type Rule = (value: unknown, depth: number) => boolean;

// Deeper than any hand-written schema; past it (or in a cycle) ajv decides.
const MAX_DEPTH = 32;
const SIMPLE_TYPES: ReadonlySet<unknown> = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);
// ajv-formats' `regex` format, which the meta-schema asks of `pattern`, refuses `\Z`.
const Z_ANCHOR = /[^\\]\\Z/;

const isNumber = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value);
const isCount = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0;
const isString = (value: unknown): boolean => typeof value === 'string';
const isBoolean = (value: unknown): boolean => typeof value === 'boolean';
const anything = (): boolean => true;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function uniqueStrings(value: unknown, allowed?: ReadonlySet<unknown>): boolean {
  return Array.isArray(value) && value.every((item) => isString(item) && (allowed === undefined || allowed.has(item))) && new Set(value).size === value.length;
}

function isPattern(value: unknown): boolean {
  if (typeof value !== 'string' || Z_ANCHOR.test(value)) return false;
  try {
    // As ajv compiles it (`unicodeRegExp`).
    new RegExp(value, 'u');
    return true;
  } catch {
    return false;
  }
}

const schemaRule: Rule = (value, depth) => knownSchema(value, depth + 1);
const schemaList: Rule = (value, depth) => Array.isArray(value) && value.length > 0 && value.every((item) => knownSchema(item, depth + 1));
const schemaMap: Rule = (value, depth) => isPlainObject(value) && Object.values(value).every((item) => knownSchema(item, depth + 1));

/** Keyword → what its value must be (2020-12 meta-schema, and ajv's own compile-time checks). */
const RULES: Readonly<Record<string, Rule>> = {
  type: (value) => SIMPLE_TYPES.has(value) || (Array.isArray(value) && value.length > 0 && uniqueStrings(value, SIMPLE_TYPES)),
  // ajv refuses an empty enum ("enum must have non-empty array") though the meta-schema allows it.
  enum: (value) => Array.isArray(value) && value.length > 0,
  const: anything,
  multipleOf: (value) => isNumber(value) && (value as number) > 0,
  maximum: isNumber,
  exclusiveMaximum: isNumber,
  minimum: isNumber,
  exclusiveMinimum: isNumber,
  maxLength: isCount,
  minLength: isCount,
  pattern: isPattern,
  // ajv-formats' formats: an unknown one would make ajv log a warning.
  format: (value) => typeof value === 'string' && AJV_FORMAT_NAMES.has(value),
  maxItems: isCount,
  minItems: isCount,
  uniqueItems: isBoolean,
  maxProperties: isCount,
  minProperties: isCount,
  required: (value) => uniqueStrings(value),
  anyOf: schemaList,
  oneOf: schemaList,
  allOf: schemaList,
  not: schemaRule,
  items: schemaRule,
  prefixItems: schemaList,
  additionalProperties: schemaRule,
  properties: schemaMap,
  title: isString,
  description: isString,
  $comment: isString,
  default: anything,
  examples: Array.isArray,
  deprecated: isBoolean,
  readOnly: isBoolean,
  writeOnly: isBoolean,
};

function knownKeyword(keyword: string, value: unknown, depth: number): boolean {
  // As absent, for the meta-schema and for ajv alike.
  if (value === undefined) return true;
  // Unknown to ajv, which with `strict: false` ignores it; the meta-schema allows any.
  if (keyword.startsWith('x-')) return true;
  const rule = Object.hasOwn(RULES, keyword) ? RULES[keyword] : undefined;
  return rule !== undefined && rule(value, depth);
}

function knownSchema(schema: unknown, depth: number): boolean {
  if (typeof schema === 'boolean') return true;
  if (depth > MAX_DEPTH || !isPlainObject(schema)) return false;
  for (const [keyword, value] of Object.entries(schema)) if (!knownKeyword(keyword, value, depth)) return false;
  return true;
}
