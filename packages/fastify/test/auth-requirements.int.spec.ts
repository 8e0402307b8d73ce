import { request } from 'node:http';
import { createApp, Tool, type RequestContext } from '@mcpkit/core';
import { InvalidTokenError } from '@mcpkit/http';
import pino from 'pino';
import { serveHttp, type HttpServer } from '../src';

// auth.md A7 and A13 over a real socket: what Node's HTTP parser does to headers matters here
// (it keeps only the first of several Authorization headers), so the fetch binding's tests do not
// cover the Fastify binding.
const TOKENS: Record<string, string> = { 'ann-token': 'ann', 'bo-token': 'bo' };

class Who {
  @Tool({ input: null })
  whoami(_input: unknown, ctx: RequestContext) {
    return JSON.stringify({ subject: ctx.auth?.subject, headers: ctx.transport.headers });
  }
}

const BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'whoami',
    arguments: {},
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});

describe('the resource server on Fastify, header by header', () => {
  let server: HttpServer;

  beforeAll(async () => {
    const app = createApp({ name: 'who', version: '1', providers: [Who], logger: pino({ level: 'silent' }) });
    server = await serveHttp(app, {
      port: 0,
      sessions: false,
      auth: {
        resource: 'http://127.0.0.1/mcp',
        authorizationServers: ['https://as.example'],
        verifier: {
          verify: (token) => {
            const subject = TOKENS[token];
            if (subject === undefined) throw new InvalidTokenError('unknown');
            return { subject, scopes: [] };
          },
        },
      },
    });
  });

  afterAll(() => server.close());

  /** A tools/call with these Authorization header lines, each sent as a line of its own. */
  function call(authorization: string[]): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const outgoing = request(server.url, { method: 'POST' }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body }));
      });
      outgoing.on('error', reject);
      outgoing.setHeader('content-type', 'application/json');
      outgoing.setHeader('accept', 'application/json, text/event-stream');
      outgoing.setHeader('mcp-protocol-version', '2026-07-28');
      outgoing.setHeader('mcp-method', 'tools/call');
      outgoing.setHeader('mcp-name', 'whoami');
      if (authorization.length > 0) outgoing.setHeader('authorization', authorization);
      outgoing.end(BODY);
    });
  }

  it('A13: two Authorization headers are refused 400, though Node keeps only the first', async () => {
    const two = await call(['Bearer ann-token', 'Bearer bo-token']);
    expect(two.status).toBe(400);
    expect(two.body).not.toMatch(/ann-token|bo-token/);
    expect((await call(['Bearer ann-token'])).status).toBe(200);
  });

  it('A7: the handler sees the subject, and no Authorization header to pass on', async () => {
    const one = await call(['Bearer bo-token']);
    const seen = (JSON.parse(one.body) as { result: { content: Array<{ text: string }> } }).result.content[0].text;
    expect(JSON.parse(seen)).toMatchObject({ subject: 'bo', headers: { host: expect.any(String) } });
    expect(seen).not.toMatch(/bo-token|authorization/i);
  });
});
