import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
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
    // As an ES module names a file beside it: new URL('./api.yaml', import.meta.url).
    expect((await loadOpenApi(pathToFileURL(join(folder, 'api.yaml')))).openapi).toBe('3.0.3');
    await expect(loadOpenApi(new URL('ftp://example.test/api.yaml'))).rejects.toThrow('fromOpenApi reads a document from an http(s) or file URL; got ftp://');
  });

  it('refuses Swagger 2.0 and what is not OpenAPI', async () => {
    await expect(loadOpenApi({ swagger: '2.0', info: {}, paths: {} })).rejects.toThrow('this one is Swagger 2.0. Convert a Swagger 2.0 document to 3.0 first');
    await expect(loadOpenApi('- a\n- b\n')).rejects.toThrow('the document text is not an object');
    await expect(loadOpenApi({ openapi: '4.0.0', paths: {} })).rejects.toThrow('this one is openapi "4.0.0"');
  });

  it('reads a file a $ref names only for a document read from a file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'openapi-'));
    writeFileSync(join(folder, 'secret.txt'), 'hunter2');
    const naming = (ref: string) => ({
      ...DOCUMENT,
      components: { schemas: { A: { type: 'object', description: { $ref: ref } } } },
    });
    for (const ref of [join(folder, 'secret.txt'), `file://${join(folder, 'secret.txt')}`]) {
      await expect(loadOpenApi(naming(ref))).rejects.toThrow(/secret\.txt": a \$ref to a file is read only in a document read from a file/);
      await expect(loadOpenApi(JSON.stringify(naming(ref)))).rejects.toThrow(/secret\.txt/);
    }
    writeFileSync(join(folder, 'api.json'), JSON.stringify(naming('secret.txt')));
    expect((schemaOf(await loadOpenApi(join(folder, 'api.json'))) as { description: unknown }).description).toBe('hunter2');
  });

  it('reads a document from a URL at a loopback address, whose $refs read no file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'openapi-'));
    writeFileSync(join(folder, 'secret.txt'), 'hunter2');
    const served = new Map<string, string>([
      ['/api.json', JSON.stringify(DOCUMENT)],
      [
        '/evil.yaml',
        `openapi: 3.0.3\ninfo: { title: t, version: '1' }\npaths: {}\ncomponents: { schemas: { A: { description: { $ref: 'file://${join(folder, 'secret.txt')}' } } } }\n`,
      ],
    ]);
    const server = createServer((request, response) => {
      const body = served.get(request.url ?? '');
      response.writeHead(body === undefined ? 404 : 200).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(schemaOf(await loadOpenApi(`${base}/api.json`)).type).toBe('object');
      expect(schemaOf(await loadOpenApi(new URL(`${base}/api.json`))).type).toBe('object');
      await expect(loadOpenApi(`${base}/evil.yaml`)).rejects.toThrow('a $ref to a file is read only in a document read from a file');
      await expect(loadOpenApi(`${base}/missing.json`)).rejects.toThrow(`fromOpenApi: cannot read ${base}/missing.json: it answered 404.`);
    } finally {
      server.close();
    }
  });

  it('reads a $ref to a URL only of the origin of the document that names it, redirects included', async () => {
    const hits: string[] = [];
    const listen = async (routes: Record<string, (response: ServerResponse) => void>) => {
      const server = createServer((request, response) => {
        hits.push(`${(server.address() as AddressInfo).port}${request.url}`);
        const route = routes[request.url ?? ''];
        if (route) route(response);
        else response.writeHead(404).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return server;
    };
    // Another origin: what only this server can reach (a metadata service, an admin port).
    const inside = await listen({ '/secret.json': (response) => response.end('"hunter2"') });
    const insideUrl = `http://127.0.0.1:${(inside.address() as AddressInfo).port}/secret.json`;
    const withRef = (ref: string) => JSON.stringify({ ...DOCUMENT, components: { schemas: { A: { type: 'object', description: { $ref: ref } } } } });
    const api = await listen({
      '/common.json': (response) => response.end('"shared text"'),
      '/same.json': (response) => response.end(withRef('common.json')),
      '/other.json': (response) => response.end(withRef(insideUrl)),
      '/bounce.json': (response) => response.end(withRef('redirect.json')),
      '/redirect.json': (response) => response.writeHead(302, { location: insideUrl }).end(),
    });
    // The API's document by another name of the same host: a different origin from the inside service's.
    const base = `http://localhost:${(api.address() as AddressInfo).port}`;
    try {
      expect((schemaOf(await loadOpenApi(`${base}/same.json`)) as { description: unknown }).description).toBe('shared text');
      await expect(loadOpenApi(`${base}/other.json`)).rejects.toThrow("one to a URL only in a document read from that URL's origin");
      await expect(loadOpenApi(`${base}/bounce.json`)).rejects.toThrow(`Error reading file "${base}/redirect.json"`);
      await expect(loadOpenApi(withRef(insideUrl))).rejects.toThrow("one to a URL only in a document read from that URL's origin");
      expect(hits.filter((hit) => hit.endsWith('/secret.json'))).toEqual([]);
    } finally {
      inside.close();
      api.close();
    }
  });

  it('names a $ref that does not resolve', async () => {
    const broken = { ...DOCUMENT, components: {} };
    await expect(loadOpenApi(broken)).rejects.toThrow(/#\/components\/schemas\/A/);
  });
});
