import { resolveLocalRefs } from './resolve-local-refs';

describe('resolveLocalRefs', () => {
  it('replaces each local $ref with its target, shared, keeping cycles as cycles', () => {
    const document = {
      paths: { '/a': { get: { parameters: [{ $ref: '#/components/parameters/Id', description: 'the id' }] } } },
      components: {
        parameters: { Id: { name: 'id', in: 'path', schema: { $ref: '#/components/schemas/Node' } } },
        schemas: {
          Node: { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' }, 'a/b': { type: 'string' } } },
          Slash: { $ref: '#/components/schemas/Node/properties/a~1b' },
        },
      },
    };
    const before = JSON.stringify(document);
    const resolved = resolveLocalRefs(document) as typeof document & Record<string, never>;
    expect(JSON.stringify(document)).toBe(before);
    const parameter = resolved.paths['/a'].get.parameters[0] as unknown as { name: string; schema: { properties: { next: unknown } } };
    expect(parameter.name).toBe('id');
    expect(parameter.schema.properties.next).toBe(parameter.schema);
    expect((resolved.components.schemas as Record<string, unknown>).Slash).toEqual({ type: 'string' });
  });

  it('keeps the keywords beside a $ref, the target taken as allOf', () => {
    expect(resolveLocalRefs({ a: { $ref: '#/b', minLength: 2 }, b: { type: 'string' } }).a).toEqual({ allOf: [{ type: 'string' }], minLength: 2 });
  });

  it('names a $ref to another file, and one that points nowhere', () => {
    expect(() => resolveLocalRefs({ a: { $ref: 'other.yaml#/Pet' } })).toThrow('The $ref "other.yaml#/Pet" names another file or URL');
    expect(() => resolveLocalRefs({ a: { $ref: '#/missing' } })).toThrow('The $ref "#/missing" points to nothing in the document.');
  });
});
