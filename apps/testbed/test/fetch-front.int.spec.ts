import { request } from 'node:http';
import { createApp, Tool, type RequestContext } from '@mcpkit/core';
import { createFetchHandler, InvalidTokenError, type FetchHandler } from '@mcpkit/http';
import pino from 'pino';
import { serveFetch, type FetchServer } from '../src/fetch-server';

// The testbed's fetch front (node:http in front of createFetchHandler) with auth: two
// Authorization lines are refused by the fetch binding itself, as by Fastify (auth.md: 400).
class Who {
  @Tool({ input: null })
  whoami(_input: unknown, ctx: RequestContext) {
    return ctx.auth?.subject ?? 'nobody';
  }
}

const TOKENS: Record<string, string> = { 'ann-token': 'ann', 'bo-token': 'bo' };
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'whoami',
};
const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {}, _meta: META } });

describe('the fetch front with auth, over a socket', () => {
  let handler: FetchHandler;
  let server: FetchServer;

  beforeAll(async () => {
    const app = createApp({ name: 'who', version: '1', providers: [Who], logger: pino({ level: 'silent' }) });
    handler = createFetchHandler(app, {
      sessions: false,
      responseMode: 'json',
      auth: {
        resource: 'http://127.0.0.1/mcp',
        authorizationServers: ['https://as.example'],
        verifier: {
          verify(token) {
            const subject = TOKENS[token];
            if (subject === undefined) throw new InvalidTokenError('unknown token');
            return { subject, scopes: [] };
          },
        },
      },
    });
    server = await serveFetch(handler, '127.0.0.1', 0);
  });

  afterAll(async () => {
    await handler.close();
    await server.close();
  });

  /** A POST with exactly these Authorization lines, each on its own line of the request head. */
  const call = (authorization: string[]) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      // A flat name, value list (Host too: node adds none to it): each Authorization line goes out as sent.
      const headers = ['host', new URL(server.url).host, ...Object.entries(HEADERS).flat(), ...authorization.flatMap((line) => ['authorization', line])];
      request(server.url, { method: 'POST', headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
      })
        .on('error', reject)
        .end(BODY);
    });

  it('refuses two Authorization lines 400 "send one Authorization header", whichever order, and serves one', async () => {
    for (const lines of [
      ['Bearer ann-token', 'Bearer bo-token'],
      ['Bearer bo-token', 'Bearer ann-token'],
      ['Bearer ann-token', 'Bearer ann-token'],
    ]) {
      const two = await call(lines);
      expect(two.status).toBe(400);
      expect(JSON.parse(two.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Bad Request: send one Authorization header' } });
    }
    const one = await call(['Bearer bo-token']);
    expect(one.status).toBe(200);
    expect(JSON.parse(one.body)).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: 'bo' }] } });
  });
});
