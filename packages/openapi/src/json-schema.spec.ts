import { toJsonSchema } from './json-schema';

describe('toJsonSchema', () => {
  it('translates 3.0’s nullable, boolean exclusive bounds and example', () => {
    expect(
      toJsonSchema({ type: 'integer', nullable: true, minimum: 1, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false, example: 3 }, true),
    ).toEqual({
      type: ['integer', 'null'],
      exclusiveMinimum: 1,
      maximum: 9,
      examples: [3],
    });
    expect(toJsonSchema({ type: 'string', enum: ['a'], nullable: true }, true)).toEqual({ type: ['string', 'null'], enum: ['a', null] });
    expect(toJsonSchema({ allOf: [{ type: 'object' }], nullable: true }, true)).toEqual({ anyOf: [{ allOf: [{ type: 'object' }] }, { type: 'null' }] });
  });

  it('keeps 3.1’s JSON Schema as it is, but for references, extensions and unknown formats', () => {
    expect(
      toJsonSchema(
        {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: ['string', 'null'],
          format: 'uuid4',
          examples: ['x'],
          'x-mcp-header': 'Region',
          discriminator: { propertyName: 'kind' },
        },
        false,
      ),
    ).toEqual({ type: ['string', 'null'], examples: ['x'] });
    expect(toJsonSchema({ type: 'string', format: 'date-time' }, false)).toEqual({ type: 'string', format: 'date-time' });
  });

  it('converts nested schemas and cuts a schema where it recurs', () => {
    const node: Record<string, unknown> = { type: 'object', properties: { value: { type: 'string', nullable: true } } };
    (node.properties as Record<string, unknown>).children = { type: 'array', items: node };
    expect(toJsonSchema(node, true)).toEqual({
      type: 'object',
      properties: { value: { type: ['string', 'null'] }, children: { type: 'array', items: {} } },
    });
  });

  it('reads the draft-04 tuple form of items as prefixItems', () => {
    expect(toJsonSchema({ type: 'array', items: [{ type: 'string' }, { type: 'integer' }] }, true)).toEqual({
      type: 'array',
      prefixItems: [{ type: 'string' }, { type: 'integer' }],
    });
  });
});
