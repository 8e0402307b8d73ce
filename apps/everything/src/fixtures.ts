/** A 1×1 red PNG. */
export const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A minimal WAV file. */
export const WAV_BASE64 = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

/**
 * An input schema that only raw JSON Schema can say: `$schema`, `$defs`, `$ref` (SEP-1613), and
 * composition, conditionals and `$anchor` (SEP-2106), all published verbatim.
 */
export const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'address',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
  },
  allOf: [{ anyOf: [{ type: 'object' }, { required: ['name'] }] }],
  if: { required: ['name'] },
  then: { properties: { name: { minLength: 1 } } },
  else: { properties: { address: { type: 'object' } } },
  additionalProperties: false,
};
