import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createApp, createLogger, flushLogs, RequireScopes, Tool, type Logger, type RequestContext } from '@mcpkit/core';
import { serveHttp, type HttpServer } from '@mcpkit/fastify';
import { jwtVerifier } from '@mcpkit/http';
import { otel, type Telemetry } from '../src';
import { StubAuthorizationServer } from '@mcpkit/testing';
import { record, type Recorder } from './recorder';

// auth.md §5 case 18 (issue #14): an authenticated session with a valid token, a bad one, a step-up,
// a token in the URL and a failing verifier, with request logging at debug and OpenTelemetry on.
// The token string must appear in no log line, no answer and no span.
class Notes {
  @Tool({ input: null })
  @RequireScopes('notes:read')
  whoami(_input: unknown, ctx: RequestContext) {
    // A handler that logs what it was given: the request's headers (they carried the token).
    ctx.logger.debug({ headers: ctx.transport.headers }, 'headers seen');
    return ctx.auth!.subject;
  }

  @Tool({ input: null })
  @RequireScopes('notes:write')
  write() {
    return 'written';
  }
}

describe('no token in logs, answers or spans (case 18)', () => {
  let as: StubAuthorizationServer;
  let recorder: Recorder;
  let telemetry: Telemetry;
  let logFile: string;
  let fd: number;
  let logger: Logger;
  const servers: HttpServer[] = [];
  const answers: string[] = [];

  beforeAll(async () => {
    as = await StubAuthorizationServer.start();
    recorder = record();
    telemetry = otel();
    logFile = join(tmpdir(), `mcpkit-secrets-${process.pid}.log`);
    fd = openSync(logFile, 'w');
    // The default logger, as createApp makes it, at debug, writing each line at once.
    logger = createLogger({ fd, level: 'debug', sync: true });
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    telemetry.disable();
    await recorder.stop();
    await as.close();
    closeSync(fd);
    rmSync(logFile, { force: true });
  });

  const serve = async (verifier: Parameters<typeof serveHttp>[1] extends infer O ? (O extends { auth?: { verifier: infer V } } ? V : never) : never) => {
    const app = createApp({ name: 'notes', version: '1', providers: [Notes], logger, logArguments: true });
    const server = await serveHttp(app, {
      port: 0,
      requestLogging: true,
      auth: { resource: 'http://127.0.0.1/mcp', authorizationServers: [as.issuer], verifier, scopesSupported: ['notes:read', 'notes:write'] },
    });
    servers.push(server);
    return server;
  };

  /** fetch, keeping every answer's status line, headers and (JSON) body. */
  const recorded: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const type = response.headers.get('content-type') ?? '';
    answers.push(`${response.status} ${JSON.stringify([...response.headers])} ${type.includes('json') ? await response.clone().text() : ''}`);
    return response;
  };

  const raw = (url: string, token: string) =>
    recorded(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });

  it('valid token, step-up, bad token, token in the query, verifier failure: the token is nowhere', async () => {
    const server = await serve(jwtVerifier({ issuer: as.issuer }));
    const token = await as.mint({ aud: 'http://127.0.0.1/mcp', scope: 'notes:read', sub: 'ada', claims: { client_id: 'cli' } });
    const client = new Client({ name: 'secrets', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), { fetch: recorded, requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    const errors: string[] = [];
    try {
      expect(await client.callTool({ name: 'whoami', arguments: { token } })).toMatchObject({ content: [{ text: 'ada' }] });
      await client.callTool({ name: 'write', arguments: {} }).catch((error: Error) => errors.push(`${error.message} ${error.stack}`));
    } finally {
      await client.close();
    }
    expect(errors.join('')).toMatch(/403|insufficient/i);

    const [header, payload] = token.split('.');
    const forged = `${header}.${payload}.${Buffer.alloc(64, 7).toString('base64url')}`;
    expect((await raw(server.url, forged)).status).toBe(401);
    expect((await recorded(`${server.url}?access_token=${token}`, { method: 'POST' })).status).toBe(400);

    // A verifier of your own that puts the token in its error: 503, and the log line is scrubbed.
    const careless = await serve({
      verify: (given: string) => {
        throw new Error(`upstream refused ${given}`);
      },
    });
    expect((await raw(careless.url, token)).status).toBe(503);

    flushLogs();
    const log = readFileSync(logFile, 'utf8');
    const spans = JSON.stringify(
      recorder.spans().map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, links: span.links, status: span.status })),
    );
    // The test sees what it checks: request lines, Fastify's request lines, the redacted headers, spans, the refusals.
    expect(log).toMatch(/"msg":"request"/);
    expect(log).toMatch(/"msg":"incoming request"/);
    // The handler's own headers line is there; the resource server took the credential out of them (A7).
    expect(log).toMatch(/"msg":"headers seen"/);
    expect(log).toContain('access_token=[Redacted]');
    expect(log).toContain('upstream refused [Redacted]');
    expect(log).toContain('"arguments":{"token":"[Redacted]"}');
    expect(spans).toContain('tools/call whoami');
    expect(answers.some((answer) => answer.startsWith('403 '))).toBe(true);
    for (const secret of [token, forged, payload.slice(8, 40), token.split('.')[2]]) {
      expect(log).not.toContain(secret);
      expect(spans).not.toContain(secret);
      for (const answer of answers) expect(answer).not.toContain(secret);
      expect(errors.join('')).not.toContain(secret);
    }
  });
});
