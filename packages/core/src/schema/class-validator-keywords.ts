import type {
  ARRAY_MAX_SIZE,
  ARRAY_MIN_SIZE,
  ARRAY_NOT_EMPTY,
  ARRAY_UNIQUE,
  EQUALS,
  IS_ARRAY,
  IS_BOOLEAN,
  IS_DATE,
  IS_DATE_STRING,
  IS_EMAIL,
  IS_ENUM,
  IS_IN,
  IS_INT,
  IS_ISO8601,
  IS_LENGTH,
  IS_NEGATIVE,
  IS_NOT_EMPTY,
  IS_NUMBER,
  IS_OBJECT,
  IS_POSITIVE,
  IS_STRING,
  IS_URL,
  IS_UUID,
  MATCHES,
  MAX,
  MAX_LENGTH,
  MIN,
  MIN_LENGTH,
} from 'class-validator';

export type Keywords = Record<string, unknown>;
// Each class-validator decorator name that JSON Schema can say, and what it says. A decorator
// missing here is "custom": it keeps class-validator in the loop for that DTO.
type Mapper = (constraints: unknown[], type: string | undefined) => Keywords | undefined;

// class-validator's decorator names, spelled here (and checked against its types) rather than
// read from it: each name lives in its decorator's module, which with the start-up opt-in
// (`@mcpkit/core/compile-cache`) loads only once an app uses that decorator (startup/defer-leaf-modules.ts).
export const DECORATOR = {
  ARRAY_MAX_SIZE: 'arrayMaxSize' satisfies typeof ARRAY_MAX_SIZE,
  ARRAY_MIN_SIZE: 'arrayMinSize' satisfies typeof ARRAY_MIN_SIZE,
  ARRAY_NOT_EMPTY: 'arrayNotEmpty' satisfies typeof ARRAY_NOT_EMPTY,
  ARRAY_UNIQUE: 'arrayUnique' satisfies typeof ARRAY_UNIQUE,
  EQUALS: 'equals' satisfies typeof EQUALS,
  IS_ARRAY: 'isArray' satisfies typeof IS_ARRAY,
  IS_BOOLEAN: 'isBoolean' satisfies typeof IS_BOOLEAN,
  IS_DATE: 'isDate' satisfies typeof IS_DATE,
  IS_DATE_STRING: 'isDateString' satisfies typeof IS_DATE_STRING,
  IS_EMAIL: 'isEmail' satisfies typeof IS_EMAIL,
  IS_ENUM: 'isEnum' satisfies typeof IS_ENUM,
  IS_IN: 'isIn' satisfies typeof IS_IN,
  IS_INT: 'isInt' satisfies typeof IS_INT,
  IS_ISO8601: 'isIso8601' satisfies typeof IS_ISO8601,
  IS_LENGTH: 'isLength' satisfies typeof IS_LENGTH,
  IS_NEGATIVE: 'isNegative' satisfies typeof IS_NEGATIVE,
  IS_NOT_EMPTY: 'isNotEmpty' satisfies typeof IS_NOT_EMPTY,
  IS_NUMBER: 'isNumber' satisfies typeof IS_NUMBER,
  IS_OBJECT: 'isObject' satisfies typeof IS_OBJECT,
  IS_POSITIVE: 'isPositive' satisfies typeof IS_POSITIVE,
  IS_STRING: 'isString' satisfies typeof IS_STRING,
  IS_URL: 'isUrl' satisfies typeof IS_URL,
  IS_UUID: 'isUuid' satisfies typeof IS_UUID,
  MATCHES: 'matches' satisfies typeof MATCHES,
  MAX: 'max' satisfies typeof MAX,
  MAX_LENGTH: 'maxLength' satisfies typeof MAX_LENGTH,
  MIN: 'min' satisfies typeof MIN,
  MIN_LENGTH: 'minLength' satisfies typeof MIN_LENGTH,
} as const;

/** Decorators that say a type and nothing else. */
export const TYPE_DECORATORS: Record<string, string> = {
  [DECORATOR.IS_STRING]: 'string',
  [DECORATOR.IS_NUMBER]: 'number',
  [DECORATOR.IS_INT]: 'integer',
  [DECORATOR.IS_BOOLEAN]: 'boolean',
  [DECORATOR.IS_ARRAY]: 'array',
  [DECORATOR.IS_OBJECT]: 'object',
};

// validator.js's isUUID without a version: exactly this, no `urn:uuid:` prefix (which ajv's format allows).
const UUID_PATTERN = '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$';

/** The JSON Schema of a date-time string: what a `Date` field travels as. */
export const DATE_TIME: Readonly<Keywords> = Object.freeze({ type: 'string', format: 'date-time' });

function enumValues(entity: unknown): unknown[] {
  if (Array.isArray(entity)) return entity;
  // A TypeScript numeric enum also maps values back to names; keep only the real members.
  return Object.entries(entity as Record<string, unknown>)
    .filter(([key]) => !/^\d+$/.test(key))
    .map(([, value]) => value);
}

function enumKeywords(values: unknown[]): Keywords {
  const types = [...new Set(values.map((value) => (typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value)))];
  const normalised = types.length === 2 && types.includes('integer') && types.includes('number') ? ['number'] : types;
  return normalised.length === 1 ? { type: normalised[0], enum: values } : { enum: values };
}

/**
 * What each mapped decorator publishes. The published schema is what is enforced (ajv checks it
 * before anything else), so a mapping may only say what the decorator means; a decorator whose
 * options narrow it further (`@IsEmail({ … })`, `@IsUrl({ … })`) returns undefined and keeps
 * class-validator in the loop. `@IsUrl()` publishes `format: "uri"` and so accepts any absolute
 * URI (`data:`, `mailto:`), as a client reading the schema expects.
 */
export const KEYWORD_MAPPERS: Record<string, Mapper> = {
  [DECORATOR.IS_ENUM]: ([entity]) => enumKeywords(enumValues(entity)),
  [DECORATOR.IS_IN]: ([values]) => enumKeywords(values as unknown[]),
  [DECORATOR.EQUALS]: ([value]) => ({ const: value }),
  [DECORATOR.MIN_LENGTH]: ([min]) => ({ minLength: min }),
  [DECORATOR.MAX_LENGTH]: ([max]) => ({ maxLength: max }),
  [DECORATOR.IS_LENGTH]: ([min, max]) => (max === undefined ? { minLength: min } : { minLength: min, maxLength: max }),
  [DECORATOR.MIN]: ([min]) => ({ minimum: min }),
  [DECORATOR.MAX]: ([max]) => ({ maximum: max }),
  [DECORATOR.IS_POSITIVE]: () => ({ exclusiveMinimum: 0 }),
  [DECORATOR.IS_NEGATIVE]: () => ({ exclusiveMaximum: 0 }),
  [DECORATOR.MATCHES]: ([pattern, modifiers]) => {
    const regex = pattern as RegExp | string;
    const flags = typeof regex === 'string' ? ((modifiers as string | undefined) ?? '') : regex.flags;
    // JSON Schema patterns have no flags: a flagged regex stays with class-validator.
    if (flags.replace(/[gyu]/g, '') !== '') return undefined;
    const source = typeof regex === 'string' ? regex : regex.source;
    // ajv compiles patterns with the u flag, which makes some escapes plain regexes allow (`\-`)
    // errors: published, such a pattern would fail every call. It stays with class-validator.
    try {
      new RegExp(source, 'u');
    } catch {
      return undefined;
    }
    return { pattern: source };
  },
  [DECORATOR.IS_EMAIL]: ([options]) => (options === undefined ? { type: 'string', format: 'email' } : undefined),
  [DECORATOR.IS_URL]: ([options]) => (options === undefined ? { type: 'string', format: 'uri' } : undefined),
  [DECORATOR.IS_UUID]: ([version]) => (version === undefined || version === 'all' ? { type: 'string', format: 'uuid', pattern: UUID_PATTERN } : undefined),
  // A full RFC 3339 timestamp; a calendar date alone is `@Field({ format: 'date' })`.
  [DECORATOR.IS_DATE_STRING]: ([options]) => (options === undefined ? { ...DATE_TIME } : undefined),
  [DECORATOR.IS_ISO8601]: ([options]) => (options === undefined ? { ...DATE_TIME } : undefined),
  [DECORATOR.ARRAY_MIN_SIZE]: ([min]) => ({ minItems: min }),
  [DECORATOR.ARRAY_MAX_SIZE]: ([max]) => ({ maxItems: max }),
  [DECORATOR.ARRAY_NOT_EMPTY]: () => ({ minItems: 1 }),
  [DECORATOR.ARRAY_UNIQUE]: ([selector]) => (selector === undefined ? { uniqueItems: true } : undefined),
  [DECORATOR.IS_NOT_EMPTY]: (_, type) => (type === 'string' ? { minLength: 1 } : type === 'array' ? { minItems: 1 } : undefined),
};
