import { isKnownValidSchema } from './known-valid-schema';
import { ValidatorFactory } from './validator-factory';

// ajv as mcpkit configures it (strict: false, ajv-formats, its uniqueItems): the judge.
const validators = new ValidatorFactory();
const ajvAccepts = (schema: unknown): boolean => {
  try {
    validators.compile(schema as Record<string, unknown>);
    return true;
  } catch {
    return false;
  }
};

// Each made only of keywords the check knows: it must say valid, and ajv must agree.
const VALID: Array<[string, unknown]> = [
  ['a raw anyOf (the testbed)', { anyOf: [{ type: 'string', minLength: 1 }, { type: 'integer' }, { type: 'null' }] }],
  ['true and false', { anyOf: [true, false], not: false }],
  ['typed bounds', { type: ['number', 'null'], minimum: -1, maximum: 2.5, exclusiveMinimum: -2, exclusiveMaximum: 3, multipleOf: 0.5 }],
  ['string keywords', { type: 'string', minLength: 0, maxLength: 10, pattern: '^[a-z]+$', format: 'email' }],
  ['an array', { type: 'array', items: { type: 'integer' }, prefixItems: [{ const: 1 }], minItems: 1, maxItems: 3, uniqueItems: true }],
  ['an object', { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false, minProperties: 1, maxProperties: 4 }],
  ['enum and const', { enum: ['a', 1, null, { b: 2 }], const: 'a' }],
  ['annotations', { title: 't', description: 'd', $comment: 'c', default: 3, examples: [1, 2], deprecated: true, readOnly: false, writeOnly: false }],
  ["x- annotations (mcpkit's x-mcp-header)", { type: 'string', 'x-mcp-header': 'Region', 'x-anything': { nested: [1] } }],
  ['an undefined keyword (as absent)', { type: 'string', minLength: undefined }],
  [
    'oneOf, allOf, nested',
    { oneOf: [{ allOf: [{ type: 'object', properties: { n: { oneOf: [{ type: 'integer' }, { type: 'string' }] } } }] }, { type: 'null' }] },
  ],
];

// Each refused by ajv: the check must not say valid.
const INVALID: Array<[string, unknown]> = [
  ['an unknown type', { type: 'text' }],
  ['a repeated type', { type: ['string', 'string'] }],
  ['an empty type list', { type: [] }],
  ['an empty enum', { enum: [] }],
  ['an enum that is not a list', { enum: 'a' }],
  ['a negative minLength', { minLength: -1 }],
  ['a fractional maxItems', { maxItems: 1.5 }],
  ['a string bound', { minimum: '1' }],
  ['a zero multipleOf', { multipleOf: 0 }],
  ['a pattern that is no regex', { pattern: '(' }],
  ['a pattern valid only without the u flag', { pattern: '\\-' }],
  ['a pattern with \\Z', { pattern: 'a\\Z' }],
  ['a non-boolean uniqueItems', { uniqueItems: 'yes' }],
  ['required with a repeat', { required: ['a', 'a'] }],
  ['required with a number', { required: [1] }],
  ['an empty anyOf', { anyOf: [] }],
  ['anyOf with a non-schema', { anyOf: [1] }],
  ['a non-schema property', { properties: { a: 'string' } }],
  ['a non-schema items', { items: [{ type: 'string' }] }],
  ['a number title', { title: 1 }],
  ['non-list examples', { examples: 1 }],
  ['a deep invalid part', { anyOf: [{ properties: { a: { items: { minLength: -1 } } } }] }],
  ['a format that is no string', { format: 1 }],
  ['a bad $ref', { $ref: '#/$defs/Missing' }],
];

// Valid or not, these are ajv's to judge: the check does not know them.
const UNKNOWN: Array<[string, unknown]> = [
  ['$ref', { $ref: '#/$defs/Node', $defs: { Node: { type: 'object' } } }],
  ['an unknown format (ajv would warn)', { type: 'string', format: 'zip-code' }],
  ["ajv's nullable", { type: 'string', nullable: true }],
  ['patternProperties', { patternProperties: { '^a': { type: 'string' } } }],
  ['an unknown keyword', { kind: 'special' }],
  ['a class instance', new (class Schema {})()],
  ['a cycle', (() => { const schema: Record<string, unknown> = { type: 'object' }; schema.properties = { self: schema }; return schema; })()], // prettier-ignore
];

describe('isKnownValidSchema', () => {
  it.each(VALID)('knows %s is valid, and ajv agrees', (_, schema) => {
    expect(isKnownValidSchema(schema)).toBe(true);
    expect(ajvAccepts(schema)).toBe(true);
  });

  it.each(INVALID)('does not call %s valid (ajv refuses it)', (_, schema) => {
    expect(ajvAccepts(schema)).toBe(false);
    expect(isKnownValidSchema(schema)).toBe(false);
  });

  it.each(UNKNOWN)('leaves %s to ajv', (_, schema) => {
    expect(isKnownValidSchema(schema)).toBe(false);
  });

  it("knows each of ajv-formats' formats, and only those", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { formatNames } = require('ajv-formats/dist/formats') as { formatNames: string[] };
    for (const format of formatNames) expect([format, isKnownValidSchema({ type: 'string', format })]).toEqual([format, true]);
    expect(isKnownValidSchema({ type: 'string', format: 'toString' })).toBe(false);
  });

  it('never calls valid what ajv refuses: every keyword it knows, with values of every kind', () => {
    const values: unknown[] = [-1, 0, 1, 1.5, '', 'a', '(', true, false, null, [], ['a'], ['a', 'a'], [1], [{}], {}, { a: {} }, { a: 1 }];
    const keywords = ['type', 'enum', 'multipleOf', 'minimum', 'maxLength', 'pattern', 'format', 'uniqueItems', 'required'];
    const more = ['anyOf', 'not', 'items', 'prefixItems', 'properties', 'title', 'examples', 'deprecated', 'additionalProperties'];
    for (const keyword of [...keywords, ...more]) {
      for (const value of values) {
        const schema = { [keyword]: value };
        if (isKnownValidSchema(schema)) expect([keyword, value, ajvAccepts(schema)]).toEqual([keyword, value, true]);
      }
    }
  });
});
