import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOpenApi } from './load-document';

const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: { '/a': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/A' } } } } } } } },
  components: { schemas: { A: { type: 'object', properties: { self: { $ref: '#/components/schemas/A' } } } } },
};

const schemaOf = (document: Record<string, unknown>) =>
  (document as { paths: { '/a': { get: { responses: { '200': { content: { 'application/json': { schema: Record<string, unknown> } } } } } } } }).paths['/a'].get
    .responses['200'].content['application/json'].schema;

describe('loadOpenApi', () => {
  it('resolves $refs without changing the object given', async () => {
    const given = structuredClone(DOCUMENT);
    const loaded = await loadOpenApi(given);
    expect(given).toEqual(DOCUMENT);
    const schema = schemaOf(loaded);
    expect(schema.type).toBe('object');
    // A schema that refers to itself stays a cycle of objects.
    expect((schema.properties as Record<string, unknown>).self).toBe(schema);
  });

  it('reads JSON text, YAML text and a file', async () => {
    expect(schemaOf(await loadOpenApi(JSON.stringify(DOCUMENT))).type).toBe('object');
    const yaml = "openapi: 3.0.3\ninfo: { title: t, version: '1' }\npaths:\n  /a:\n    get:\n      responses: { '204': { description: none } }\n";
    expect((await loadOpenApi(yaml)).openapi).toBe('3.0.3');
    const folder = mkdtempSync(join(tmpdir(), 'openapi-'));
    writeFileSync(join(folder, 'api.yaml'), yaml);
    expect((await loadOpenApi(join(folder, 'api.yaml'))).openapi).toBe('3.0.3');
  });

  it('refuses Swagger 2.0 and what is not OpenAPI', async () => {
    await expect(loadOpenApi({ swagger: '2.0', info: {}, paths: {} })).rejects.toThrow('this one is Swagger 2.0. Convert a Swagger 2.0 document to 3.0 first');
    await expect(loadOpenApi('- a\n- b\n')).rejects.toThrow('the document text is not an object');
    await expect(loadOpenApi({ openapi: '4.0.0', paths: {} })).rejects.toThrow('this one is openapi "4.0.0"');
  });

  it('names a $ref that does not resolve', async () => {
    const broken = { ...DOCUMENT, components: {} };
    await expect(loadOpenApi(broken)).rejects.toThrow(/#\/components\/schemas\/A/);
  });
});
