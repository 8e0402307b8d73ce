import 'reflect-metadata';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createApp } from '@mcpkit/core';
import { serveHttp } from '@mcpkit/fastify';
import { TestClient, firstText } from '@mcpkit/testing';
import { proxy, type ProxyTimers } from '../src';

// A remote that means harm, and a caller that should not reach further than the gateway allows:
// hostile names and lists, the caller's credentials, the remote's address in an error.
const REMOTE = join(__dirname, 'fixtures', 'faulty-remote.js');
const NO_TIMERS: ProxyTimers = { setTimeout: () => undefined, clearTimeout: () => undefined };

const stdioRemote = (extraTools: unknown[]) => ({
  command: process.execPath,
  args: [REMOTE],
  env: { ...process.env, REMOTE_EXTRA_TOOLS: JSON.stringify(extraTools) },
});
const tool = (name: unknown) => ({ name, description: 'hostile', inputSchema: { type: 'object' } });

describe('a remote listing hostile tools', () => {
  it('offers what core accepts and leaves out, and reports, names that repeat or that core refuses', async () => {
    const errors: Error[] = [];
    const mirror = await proxy(stdioRemote([tool('echo'), tool('../escape'), tool('has space'), tool(''), tool(42), tool('ok_extra')]), {
      client: { era: 'legacy' },
      timers: NO_TIMERS,
      onError: (error) => void errors.push(error),
    });
    try {
      const gateway = createApp({ name: 'gateway', version: '1.0.0', providers: [], imports: [{ app: mirror.app, prefix: 'remote' }] });
      const client = await TestClient.connect(gateway);
      const names = (await client.listTools()).map((entry) => entry.name);
      expect(names).toEqual(expect.arrayContaining(['remote_echo', 'remote_ok_extra']));
      expect(names.filter((name) => name === 'remote_echo')).toHaveLength(1);
      expect(names.some((name) => name.includes('escape') || name.includes(' '))).toBe(false);
      expect((await client.callTool('remote_echo', { text: 'the first entry' })).content).toEqual([{ type: 'text', text: 'the first entry' }]);
      client.close();
      const said = errors.map((error) => error.message);
      expect(said).toEqual(
        expect.arrayContaining([
          `the upstream server's tool "echo" is listed twice: its first entry is offered`,
          expect.stringMatching(/^the upstream server's tool "\.\.\/escape" is not offered: MCPKIT_ERR_INVALID_TOOL_NAME/),
          expect.stringMatching(/^the upstream server's tool "has space" is not offered/),
        ]),
      );
    } finally {
      await mirror.close();
    }
  });

  it('mirrors at most maxItems of a huge list, and says so', async () => {
    const errors: Error[] = [];
    const many = Array.from({ length: 300 }, (_, index) => tool(`many_${index}`));
    const mirror = await proxy(stdioRemote(many), { client: { era: 'legacy' }, maxItems: 50, timers: NO_TIMERS, onError: (error) => void errors.push(error) });
    try {
      const client = await TestClient.connect(mirror.app);
      expect(await client.listTools()).toHaveLength(50);
      client.close();
      expect(errors.map((error) => error.message)).toContain("the upstream server's lists hold more than 50 items (maxItems): the rest are not offered");
    } finally {
      await mirror.close();
    }
  });
});

type Handler = (request: IncomingMessage, body: Record<string, unknown>, response: ServerResponse) => void;

describe("a caller's credentials and the remote's address", () => {
  let server: Server;
  let url: string;
  let onCall: Handler;
  const seen: IncomingMessage['headers'][] = [];

  beforeAll(async () => {
    // A legacy Streamable HTTP remote that answers JSON, records every request's headers, and
    // lets the test answer tools/call.
    server = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk) => (text += chunk));
      request.on('end', () => {
        seen.push(request.headers);
        const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
        const json = (value: unknown, headers: Record<string, string> = {}) =>
          response.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
        if (request.method !== 'POST') return void response.writeHead(405).end();
        if (body.method === 'initialize') {
          return json(
            { jsonrpc: '2.0', id: body.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'h', version: '1' } } },
            { 'mcp-session-id': 's1' },
          );
        }
        if (body.id === undefined) return void response.writeHead(202).end();
        if (body.method === 'tools/list') return json({ jsonrpc: '2.0', id: body.id, result: { tools: [tool('whoami')] } });
        onCall(request, body, response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp?api_key=sekrit-in-the-url`;
  });

  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("sends the remote the configured headers and never the gateway caller's Authorization", async () => {
    onCall = (_request, body, response) =>
      void response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { content: [{ type: 'text', text: 'ok' }] } }));
    const mirror = await proxy({ url, headers: { 'x-gateway-key': 'configured' } }, { client: { era: 'legacy' }, timers: NO_TIMERS });
    const gateway = await serveHttp(createApp({ name: 'gateway', version: '1.0.0', providers: [], imports: [{ app: mirror.app, prefix: 'remote' }] }), {
      host: '127.0.0.1',
      port: 0,
    });
    const sdk = new Client({ name: 'sdk', version: '1.0.0' });
    try {
      await sdk.connect(
        new StreamableHTTPClientTransport(new URL(gateway.url), {
          requestInit: { headers: { authorization: 'Bearer caller-secret', cookie: 'session=caller' } },
        }),
      );
      seen.length = 0;
      const result = (await sdk.callTool({ name: 'remote_whoami', arguments: {} })) as CallToolResult;
      expect(result.content).toEqual([{ type: 'text', text: 'ok' }]);
      expect(seen.length).toBeGreaterThan(0);
      for (const headers of seen) {
        expect(headers['x-gateway-key']).toBe('configured');
        expect(JSON.stringify(headers)).not.toMatch(/caller-secret|session=caller/);
      }
    } finally {
      await sdk.close();
      await gateway.close();
      await mirror.close();
    }
  });

  it("tells the caller a failed call in a sentence that names neither the remote's URL nor its key; the full error goes to onError", async () => {
    onCall = (_request, _body, response) => void response.writeHead(200, { 'content-type': 'text/html' }).end('<html>login page</html>');
    const errors: Error[] = [];
    const mirror = await proxy({ url }, { client: { era: 'legacy' }, timers: NO_TIMERS, onError: (error) => void errors.push(error) });
    try {
      const client = await TestClient.connect(mirror.app);
      const result = await client.callTool('whoami');
      client.close();
      expect(result).toEqual({
        isError: true,
        content: [{ type: 'text', text: 'tool whoami: the upstream server failed: the upstream server sent something that is not a readable answer' }],
      });
      expect(errors.map((error) => error.message).join('\n')).toContain('sekrit-in-the-url');
    } finally {
      await mirror.close();
    }
  });
});

describe("a remote's resources", () => {
  it('are followed up to 256 subscriptions, however many it lists', async () => {
    const mirror = await proxy({ ...stdioRemote([]), env: { ...process.env, REMOTE_RESOURCES: '300' } }, { client: { era: 'legacy' }, timers: NO_TIMERS });
    try {
      const client = await TestClient.connect(mirror.app);
      expect(await client.listResources()).toHaveLength(300);
      const stats = JSON.parse(firstText(await client.callTool('stats'))) as { subscribed: number };
      expect(stats.subscribed).toBe(256);
      client.close();
    } finally {
      await mirror.close();
    }
  });

  it('flooding updates reach a subscriber with a few updates of the resource it follows, and none of a resource it never listed', async () => {
    const mirror = await proxy({ ...stdioRemote([]), env: { ...process.env, REMOTE_RESOURCES: '1' } }, { client: { era: 'legacy' }, timers: NO_TIMERS });
    try {
      const gateway = createApp({ name: 'gateway', version: '1.0.0', providers: [], subscriptions: true, imports: [{ app: mirror.app, prefix: 'remote' }] });
      const client = await TestClient.connect(gateway);
      await client.subscribe('remote+test://watched');
      await client.subscribe('remote+test://unlisted');
      expect((await client.callTool('remote_update_flood', { count: 1_000 })).content).toEqual([{ type: 'text', text: 'updated' }]);
      const updates = () => client.notifications('notifications/resources/updated').map((params) => params.uri);
      while (updates().length === 0) await new Promise((resolve) => setImmediate(resolve));
      expect(updates().length).toBeLessThanOrEqual(5);
      expect(new Set(updates())).toEqual(new Set(['remote+test://watched']));
      client.close();
    } finally {
      await mirror.close();
    }
  });
});
