import { request as httpRequest } from 'node:http';
import { createApp, Tool, SUPPORTED_PROTOCOL_VERSIONS } from '@mcpkit/core';
import { createFetchHandler } from '@mcpkit/http';
import pino from 'pino';
import { serveHttp, type HttpServer } from '../src';
import { INITIALIZE, post } from './fixture-app';

// Issue #28 item 6 (SEP-2127, draft): the Server Card at <endpoint>/server-card, opt-in, over loopback.
class Echo {
  @Tool({ description: 'Echoes', input: null })
  echo() {
    return 'echo';
  }
}

const app = createApp({
  name: 'card-test',
  title: 'Card test',
  version: '1.2.3',
  description: 'Answers the card tests',
  providers: [Echo],
  logger: pino({ level: 'silent' }),
});

/** A raw GET with the Host and Origin given: fetch() would not let a test choose the Host. */
function get(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'GET', headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('serverCard: true on serveHttp', () => {
  let server: HttpServer;

  beforeAll(async () => (server = await serveHttp(app, { port: 0, serverCard: { name: 'io.github.example/card-test' } })));
  afterAll(() => server.close());

  it('serves the card to any origin, naming the endpoint as the client reached it', async () => {
    const answer = await get(`${server.url}/server-card`, { origin: 'https://elsewhere.example' });
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(JSON.parse(answer.body)).toEqual({
      $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
      name: 'io.github.example/card-test',
      title: 'Card test',
      version: '1.2.3',
      description: 'Answers the card tests',
      remotes: [{ type: 'streamable-http', url: server.url, supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS] }],
    });
  });

  it('refuses a Host that is not allowed (403), and other methods (405); the endpoint serves on', async () => {
    expect((await get(`${server.url}/server-card`, { host: 'evil.example' })).status).toBe(403);
    const del = await fetch(`${server.url}/server-card`, { method: 'DELETE' });
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('GET, OPTIONS');
    const init = await post(server.url, INITIALIZE);
    expect(init.status).toBe(200);
  });
});

describe('without serverCard', () => {
  let server: HttpServer;

  beforeAll(async () => (server = await serveHttp(app, { port: 0 })));
  afterAll(() => server.close());

  it('has no card (404)', async () => {
    expect((await fetch(`${server.url}/server-card`)).status).toBe(404);
  });
});

describe('serverCard on the fetch handler, with its public URL', () => {
  it('serves the card with the configured URL', async () => {
    const handler = createFetchHandler(app, { serverCard: { url: 'https://cards.example.com/mcp' }, allowedHosts: ['*'] });
    const answer = await handler(new Request('https://cards.example.com/mcp/server-card'));
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { remotes: { url: string }[] }).remotes[0].url).toBe('https://cards.example.com/mcp');
    await handler.close();
  });
});
