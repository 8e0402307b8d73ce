import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { serveHttp, type HttpServer } from '../src';
import { fixtureApp, post } from './fixture-app';

describe('the opt-in 2024-11-05 HTTP+SSE endpoints', () => {
  let server: HttpServer;
  let base: string;

  beforeAll(async () => {
    server = await serveHttp(fixtureApp(), { port: 0, legacySse: true });
    base = server.url.replace(/\/mcp$/, '');
  });

  afterAll(async () => {
    await server.close();
  });

  it('serves the SDK SSEClientTransport', async () => {
    const client = new Client({ name: 'legacy', version: '1' });
    await client.connect(new SSEClientTransport(new URL(`${base}/sse`)));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['route', 'echo', 'tagged', 'steps', 'polling']);
    expect(await client.callTool({ name: 'echo', arguments: { text: 'old' } })).toEqual({ content: [{ type: 'text', text: 'old|session' }] });
    const progress: number[] = [];
    await client.callTool({ name: 'steps', arguments: { steps: 2, delayMs: 1, settleMs: 20 } }, undefined, { onprogress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([1, 2]);
    await client.close();
  });

  it('announces the messages endpoint first, and checks the session id and Host', async () => {
    const controller = new AbortController();
    const stream = await fetch(`${base}/sse`, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
    const reader = stream.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toMatch(/^event: endpoint\ndata: \/messages\?sessionId=[A-Za-z0-9_-]+\n\n/);
    controller.abort();
    expect((await post(`${base}/messages`, { jsonrpc: '2.0', id: 1, method: 'ping' })).status).toBe(400);
    expect((await post(`${base}/messages?sessionId=nope`, { jsonrpc: '2.0', id: 1, method: 'ping' })).status).toBe(404);
    expect((await fetch(`${base}/sse`, { headers: { accept: 'application/json' } })).status).toBe(406);
    expect((await fetch(`${base}/sse`, { headers: { accept: 'text/event-stream', origin: 'http://evil.example.com' } })).status).toBe(403);
  });
});
