import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { createApp, defineTool } from '@mcpkit/core';
import { RpcError, TestClient, firstText } from '@mcpkit/testing';
import { createGateway } from '../examples/gateway.example';

// docs/proxy.md, "A gateway": a mounted app, the built apps/everything over stdio and a REST
// service on loopback (its OpenAPI document given as an object) behind one app that needs a caller.
const EVERYTHING = join(__dirname, '..', '..', 'apps', 'everything', 'dist', 'main.js');
const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Stock', version: '1.0.0' },
  paths: {
    '/stock/{sku}': {
      get: {
        operationId: 'getStock',
        parameters: [{ name: 'sku', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': { description: 'The item', content: { 'application/json': { schema: { type: 'object', properties: { quantity: { type: 'integer' } } } } } },
        },
      },
    },
  },
};

describe('the gateway example', () => {
  let rest: Server;
  let baseUrl: string;
  beforeAll(async () => {
    rest = createServer((request, response) => response.setHeader('content-type', 'application/json').end(JSON.stringify({ quantity: request.url?.length })));
    await new Promise<void>((resolve) => rest.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(rest.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => rest.close(() => resolve())));

  it('offers the mounted, proxied and REST tools under their prefixes, to callers only', async () => {
    const notes = createApp({ name: 'notes', version: '1.0.0', providers: [defineTool({ name: 'add_note', description: 'Adds a note.' }, () => 'added')] });
    const { app, close } = await createGateway({ notes, everythingMain: EVERYTHING, rest: { baseUrl, document: DOCUMENT } });
    const anonymous = await TestClient.connect(app);
    const client = await TestClient.connect(app, { auth: { subject: 'ada', clientId: 'docs', scopes: [] } });
    try {
      expect((await client.listTools()).map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['notes_add_note', 'everything_test_simple_text', 'rest_getStock']),
      );
      expect(firstText(await client.callTool('notes_add_note'))).toBe('added');
      expect(firstText(await client.callTool('everything_test_simple_text'))).toBe('This is a simple text response for testing.');
      expect((await client.callTool('rest_getStock', { sku: 'SKU-1' })).structuredContent).toEqual({ quantity: '/stock/SKU-1'.length });
      await expect(anonymous.callTool('everything_test_simple_text')).rejects.toBeInstanceOf(RpcError);
    } finally {
      anonymous.close();
      client.close();
      await close();
    }
  });
});
