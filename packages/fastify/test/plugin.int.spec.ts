import Fastify, { type FastifyInstance } from 'fastify';
import { mcpkit } from '../src';
import { fixtureApp, INITIALIZE } from './fixture-app';

async function hostApp(): Promise<FastifyInstance> {
  const host = Fastify();
  host.addHook('onRequest', async (request, reply) => {
    reply.header('x-host-hook', 'ran');
  });
  host.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => done(null, `plain:${body as string}`));
  host.setErrorHandler((error: Error, _request, reply) => reply.code(418).send({ host: 'error handler', message: error.message }));
  host.get('/health', async () => ({ ok: true }));
  host.post('/echo', async (request) => ({ body: request.body }));
  host.get('/boom', async () => {
    throw new Error('host failure');
  });
  return host;
}

async function exercise(host: FastifyInstance) {
  const health = await host.inject({ method: 'GET', url: '/health' });
  const plain = await host.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'text/plain' }, payload: 'hello' });
  const json = await host.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{"a":1}' });
  const badJson = await host.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{oops' });
  const boom = await host.inject({ method: 'GET', url: '/boom' });
  const missing = await host.inject({ method: 'GET', url: '/nothing-here' });
  return [health, plain, json, badJson, boom, missing].map((response) => ({
    status: response.statusCode,
    hook: response.headers['x-host-hook'],
    body: response.body,
  }));
}

describe('the mcpkit plugin inside a host Fastify app', () => {
  it('adds the MCP endpoint and changes none of the host routes, hooks, parsers or error handler', async () => {
    const bare = await hostApp();
    await bare.ready();
    const before = await exercise(bare);
    await bare.close();

    const host = await hostApp();
    await host.register(mcpkit, { app: fixtureApp(), path: '/mcp' });
    await host.ready();
    expect(await exercise(host)).toEqual(before);
    expect(before[1].body).toBe('{"body":"plain:hello"}');
    expect(before[4]).toMatchObject({ status: 418, body: expect.stringContaining('host failure') });

    const answer = await host.inject({
      method: 'POST',
      url: '/mcp',
      headers: { host: 'localhost', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: JSON.stringify(INITIALIZE),
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['mcp-session-id']).toBeDefined();
    // The host's hook runs on the MCP route too; the plugin's own error handling applies there.
    expect(answer.headers['x-host-hook']).toBe('ran');
    const textPlain = await host.inject({
      method: 'POST',
      url: '/mcp',
      headers: { host: 'localhost', 'content-type': 'text/plain', accept: 'application/json, text/event-stream' },
      payload: 'x',
    });
    expect(textPlain.statusCode).toBe(415);
    expect(JSON.parse(textPlain.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    await host.close();
  });

  it('honours a prefix when registered inside a prefixed plugin', async () => {
    const host = Fastify();
    await host.register(
      async (scope) => {
        await scope.register(mcpkit, { app: fixtureApp() });
      },
      { prefix: '/api' },
    );
    const answer = await host.inject({
      method: 'POST',
      url: '/api/mcp',
      headers: { host: '127.0.0.1:8080', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: JSON.stringify(INITIALIZE),
    });
    expect(answer.statusCode).toBe(200);
    await host.close();
  });

  it('rejects options without an app at registration', async () => {
    const host = Fastify();
    await expect(host.register(mcpkit, {} as never).ready()).rejects.toThrow(/createApp/);
    await host.close();
  });
});
