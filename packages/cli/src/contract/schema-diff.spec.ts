import { compareInputSchemas, compareOutputSchemas, type SchemaChange } from './schema-diff';

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });

/** The changes without their severity (it follows from the rule), for short expectations. */
function brief(changes: SchemaChange[]): Array<Omit<SchemaChange, 'severity'>> {
  return changes.map(({ severity: _severity, ...rest }) => rest);
}

describe('compareInputSchemas', () => {
  describe('one case per rule', () => {
    it.each<[string, unknown, unknown, Array<Omit<SchemaChange, 'severity'>>]>([
      [
        'input-required-added: a new required input',
        object({ a: { type: 'string' } }),
        object({ a: { type: 'string' }, b: { type: 'string' } }, { required: ['b'] }),
        [{ rule: 'input-required-added', path: '/b', message: 'new required input b', witness: {} }],
      ],
      [
        'input-required-added: an optional input made required',
        object({ a: { type: 'string' } }),
        object({ a: { type: 'string' } }, { required: ['a'] }),
        [{ rule: 'input-required-added', path: '/a', message: 'a is required now', witness: {} }],
      ],
      [
        'input-type-narrowed: a type dropped',
        object({ a: { type: ['string', 'integer'] } }),
        object({ a: { type: 'string' } }),
        [{ rule: 'input-type-narrowed', path: '/a', message: 'type string | integer → string', witness: { a: 0 } }],
      ],
      [
        'input-type-narrowed: number to integer',
        object({ a: { type: 'number' } }),
        object({ a: { type: 'integer' } }),
        [{ rule: 'input-type-narrowed', path: '/a', message: 'type number → integer', witness: { a: 0.5 } }],
      ],
      [
        'input-type-narrowed: nullable no more (anyOf with null)',
        object({ a: { anyOf: [{ type: 'string' }, { type: 'null' }] } }),
        object({ a: { type: 'string' } }),
        [{ rule: 'input-type-narrowed', path: '/a', message: 'null is no longer accepted (string now)', witness: { a: null } }],
      ],
      [
        'input-type-narrowed: a oneOf branch gone, through $ref',
        object({ a: { $ref: '#/$defs/A' } }, { $defs: { A: { oneOf: [{ type: 'string' }, { type: 'boolean' }] } } }),
        object({ a: { $ref: '#/$defs/A' } }, { $defs: { A: { oneOf: [{ type: 'string' }] } } }),
        [{ rule: 'input-type-narrowed', path: '/a', message: 'boolean is no longer accepted (string now)', witness: { a: false } }],
      ],
      [
        'input-enum-value-removed',
        object({ a: { enum: ['x', 'y'] } }),
        object({ a: { enum: ['x'] } }),
        [{ rule: 'input-enum-value-removed', path: '/a', message: '"y" removed', witness: { a: 'y' } }],
      ],
      [
        'input-enum-value-removed: a const changed',
        object({ a: { const: 'x' } }),
        object({ a: { const: 'y' } }),
        [
          { rule: 'input-enum-value-removed', path: '/a', message: '"x" removed', witness: { a: 'x' } },
          { rule: 'input-enum-value-added', path: '/a', message: '"y" added' },
        ],
      ],
      [
        'input-constraint-tightened: maximum',
        object({ n: { type: 'integer', maximum: 100 } }),
        object({ n: { type: 'integer', maximum: 50 } }),
        [{ rule: 'input-constraint-tightened', path: '/n', message: 'maximum ≤ 100 → ≤ 50', witness: { n: 51 } }],
      ],
      [
        'input-constraint-tightened: exclusiveMinimum',
        object({ n: { type: 'number', minimum: 0 } }),
        object({ n: { type: 'number', exclusiveMinimum: 0 } }),
        [{ rule: 'input-constraint-tightened', path: '/n', message: 'minimum ≥ 0 → > 0', witness: { n: 0 } }],
      ],
      [
        'input-constraint-tightened: maxLength',
        object({ s: { type: 'string', maxLength: 10 } }),
        object({ s: { type: 'string', maxLength: 3 } }),
        [{ rule: 'input-constraint-tightened', path: '/s', message: 'maxLength 10 → 3', witness: { s: 'aaaa' } }],
      ],
      [
        'input-constraint-tightened: pattern added',
        object({ s: { type: 'string' } }),
        object({ s: { type: 'string', pattern: '^[0-9]+$' } }),
        [{ rule: 'input-constraint-tightened', path: '/s', message: 'pattern none → "^[0-9]+$"', witness: { s: '' } }],
      ],
      [
        'input-constraint-tightened: format added',
        object({ s: { type: 'string', minLength: 1 } }),
        object({ s: { type: 'string', minLength: 1, format: 'email' } }),
        [{ rule: 'input-constraint-tightened', path: '/s', message: 'format none → "email"', witness: { s: 'a' } }],
      ],
      [
        'input-constraint-tightened: additionalProperties closed',
        object({ a: { type: 'string' } }),
        object({ a: { type: 'string' } }, { additionalProperties: false }),
        [{ rule: 'input-constraint-tightened', path: '', message: 'additionalProperties closed', witness: { extra: '' } }],
      ],
      [
        'input-constraint-tightened: array bounds and uniqueItems',
        object({ l: { type: 'array', items: { type: 'integer' }, maxItems: 4 } }),
        object({ l: { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 2, uniqueItems: true } }),
        [
          { rule: 'input-constraint-tightened', path: '/l', message: 'minItems none → 1', witness: { l: [] } },
          { rule: 'input-constraint-tightened', path: '/l', message: 'maxItems 4 → 2', witness: { l: [0, 0, 0] } },
          { rule: 'input-constraint-tightened', path: '/l', message: 'uniqueItems added', witness: { l: [0, 0] } },
        ],
      ],
      [
        'input-constraint-tightened: an enum where there was none',
        object({ s: { type: 'string' } }),
        object({ s: { type: 'string', enum: ['a'] } }),
        [{ rule: 'input-constraint-tightened', path: '/s', message: 'only ["a"] now', witness: { s: '' } }],
      ],
      [
        'input-default-removed: its witness is accepted by both and means something else',
        object({ page: { type: 'integer', default: 1 } }),
        object({ page: { type: 'integer' } }),
        [{ rule: 'input-default-removed', path: '/page', message: 'default 1 of page removed', witness: {} }],
      ],
      [
        'input-removed: gone, and refused by a closed schema',
        object({ a: { type: 'string' }, old: { type: 'boolean' } }),
        object({ a: { type: 'string' } }, { additionalProperties: false }),
        [
          { rule: 'input-removed', path: '/old', message: 'old removed; sending it is refused now', witness: { old: false } },
          { rule: 'input-constraint-tightened', path: '', message: 'additionalProperties closed', witness: { extra: '' } },
        ],
      ],
      [
        'input-no-longer-read: gone from an open schema',
        object({ a: { type: 'string' }, old: { type: 'boolean' } }),
        object({ a: { type: 'string' } }),
        [{ rule: 'input-no-longer-read', path: '/old', message: 'old removed; clients may still send it, and it is ignored' }],
      ],
      [
        'input-default-changed',
        object({ k: { type: 'integer', default: 1 } }),
        object({ k: { type: 'integer', default: 2 } }),
        [{ rule: 'input-default-changed', path: '/k', message: 'default of k 1 → 2' }],
      ],
      [
        'input-default-added',
        object({ k: { type: 'integer' } }),
        object({ k: { type: 'integer', default: 2 } }),
        [{ rule: 'input-default-added', path: '/k', message: 'default of k: 2' }],
      ],
      [
        'schema-keyword-changed: a keyword the diff does not compare',
        object({ a: { type: 'string' } }),
        object({ a: { type: 'string' } }, { dependentRequired: { a: ['b'] } }),
        [{ rule: 'schema-keyword-changed', path: '', message: 'dependentRequired none → {"a":["b"]}' }],
      ],
      ['input-optional-added', object({}), object({ b: { type: 'string' } }), [{ rule: 'input-optional-added', path: '/b', message: 'new optional input b' }]],
      [
        'input-type-widened and input-constraint-loosened',
        object({ n: { type: 'integer', minimum: 1 } }, { required: ['n'] }),
        object({ n: { type: ['number', 'null'] } }),
        [
          { rule: 'input-type-widened', path: '/n', message: 'type integer → number | null' },
          { rule: 'input-constraint-loosened', path: '/n', message: 'minimum ≥ 1 → none' },
          { rule: 'input-constraint-loosened', path: '/n', message: 'n is optional now' },
        ],
      ],
      [
        'input-enum-value-added',
        object({ a: { enum: ['x'] } }),
        object({ a: { enum: ['x', 'y'] } }),
        [{ rule: 'input-enum-value-added', path: '/a', message: '"y" added' }],
      ],
      [
        'field-description-changed and metadata-changed',
        object({ a: { type: 'string', description: 'old', title: 'A' } }),
        object({ a: { type: 'string', description: 'new', title: 'The A' } }),
        [
          { rule: 'field-description-changed', path: '/a', message: 'description "old" → "new"' },
          { rule: 'metadata-changed', path: '/a', message: 'title "A" → "The A"' },
        ],
      ],
    ])('%s', (_, before, after, expected) => {
      expect(brief(compareInputSchemas(before, after))).toEqual(expected);
    });
  });

  it('follows recursion through $ref without looping, reporting a change of the recursive definition once', () => {
    const tree = (value: Record<string, unknown>) =>
      object(
        { root: { $ref: '#/$defs/Node' } },
        {
          required: ['root'],
          $defs: {
            Node: object({
              value,
              children: { type: 'array', items: { $ref: '#/$defs/Node' } },
              next: { anyOf: [{ $ref: '#/$defs/Node' }, { type: 'null' }] },
            }),
          },
        },
      );
    expect(brief(compareInputSchemas(tree({ type: 'string' }), tree({ type: 'string', maxLength: 3 })))).toEqual([
      { rule: 'input-constraint-tightened', path: '/root/value', message: 'maxLength none → 3', witness: { root: { value: 'aaaa' } } },
    ]);
    // A schema that refers to itself at the root, and a ref loop, end too.
    expect(
      compareInputSchemas({ type: 'object', properties: { self: { $ref: '#' } } }, { type: 'object', properties: { self: { $ref: '#' } }, required: ['self'] }),
    ).toHaveLength(1);
    expect(compareInputSchemas({ $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } }, $ref: '#/$defs/A' }, { type: 'object' })).toEqual([
      expect.objectContaining({ rule: 'input-type-narrowed' }),
    ]);
  });

  it('finds no change between equal schemas written differently (key order, $ref against inline, allOf)', () => {
    const inline = object({ a: { type: 'string', maxLength: 3 } }, { required: ['a'] });
    expect(compareInputSchemas(inline, { required: ['a'], properties: { a: { maxLength: 3, type: 'string' } }, type: 'object' })).toEqual([]);
    expect(compareInputSchemas(inline, object({ a: { $ref: '#/$defs/A' } }, { required: ['a'], $defs: { A: { type: 'string', maxLength: 3 } } }))).toEqual([]);
    expect(compareInputSchemas(inline, { allOf: [object({ a: { type: 'string' } }), { required: ['a'], properties: { a: { maxLength: 3 } } }] })).toEqual([]);
  });
});

describe('compareOutputSchemas', () => {
  it.each<[string, unknown, unknown, Array<Omit<SchemaChange, 'severity'>>]>([
    [
      'output-field-removed: a required field removed',
      object({ id: { type: 'integer' }, t: { type: 'string' } }, { required: ['id', 't'] }),
      object({ id: { type: 'integer' } }, { required: ['id'] }),
      [{ rule: 'output-field-removed', path: '/t', message: 't removed', witness: { id: 0 } }],
    ],
    [
      'output-field-removed: a field that may be absent now',
      object({ id: { type: 'integer' } }, { required: ['id'] }),
      object({ id: { type: 'integer' } }),
      [{ rule: 'output-field-removed', path: '/id', message: 'id may be absent now', witness: {} }],
    ],
    [
      'output-type-changed: a type that allows new values, and a new enum value',
      object({ id: { type: 'integer' }, s: { enum: ['a'] } }, { required: ['id'] }),
      object({ id: { type: ['integer', 'string'] }, s: { enum: ['a', 'b'] } }, { required: ['id'] }),
      [
        { rule: 'output-type-changed', path: '/id', message: 'type integer → integer | string', witness: { id: '' } },
        { rule: 'output-type-changed', path: '/s', message: '"b" may be returned now', witness: { id: 0, s: 'b' } },
      ],
    ],
    [
      'output-field-added, output-type-narrowed and output-constraint-loosened',
      object({ n: { type: ['integer', 'null'], maximum: 5 } }),
      object({ n: { type: 'integer' }, m: { type: 'string' } }),
      [
        { rule: 'output-type-narrowed', path: '/n', message: 'type integer | null → integer' },
        { rule: 'output-constraint-loosened', path: '/n', message: 'maximum 5 → none' },
        { rule: 'output-field-added', path: '/m', message: 'm added' },
      ],
    ],
  ])('%s', (_, before, after, expected) => {
    expect(brief(compareOutputSchemas(before, after))).toEqual(expected);
  });
});
