import { Client as ModernClient, SSEClientTransport as ModernSseTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { serveHttp, type HttpServer } from '../src';
import { fixtureApp, INITIALIZE, post } from './fixture-app';

const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const HANDSHAKE_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

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
    await client.callTool({ name: 'steps', arguments: { steps: 2, delayMs: 1 } }, undefined, { onprogress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([1, 2]);
    await client.close();
  });

  // Both clients handle a progress notification a microtask after the message, and forget a
  // request's progress handler with its answer: a last progress in the same read as the answer
  // was lost on every call.
  it("gives both official clients every call's last progress, answered right after it", async () => {
    const v1 = new Client({ name: 'legacy-v1', version: '1' });
    await v1.connect(new SSEClientTransport(new URL(`${base}/sse`)));
    const v2 = new ModernClient({ name: 'legacy-v2', version: '1' });
    await v2.connect(new ModernSseTransport(new URL(`${base}/sse`)));
    // A fresh client loads code on its first call: an event loop blocked past the gap reads both events at once.
    await v1.callTool({ name: 'steps', arguments: { steps: 1, delayMs: 1 } });
    await v2.callTool({ name: 'steps', arguments: { steps: 1, delayMs: 1 } });
    const seen = { v1: [] as number[], v2: [] as number[] };
    for (let call = 0; call < 5; call++) {
      const args = { name: 'steps', arguments: { steps: 3, delayMs: 1 } };
      await v1.callTool(args, undefined, { onprogress: (p) => seen.v1.push(p.progress) });
      await v2.callTool(args, { onprogress: (p) => seen.v2.push(p.progress) });
    }
    const expected = Array.from({ length: 5 }, () => [1, 2, 3]).flat();
    expect(seen).toEqual({ v1: expected, v2: expected });
    await v1.close();
    await v2.close();
  });

  // 2026-07-28 has no HTTP+SSE transport: its requests are refused as a version this endpoint
  // does not serve, and the stream goes on serving its own revision.
  it('refuses 2026-07-28 requests with 400 and -32022 naming the revisions it serves, and serves on', async () => {
    const controller = new AbortController();
    const stream = await fetch(`${base}/sse`, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
    const reader = stream.body!.getReader();
    let received = new TextDecoder().decode((await reader.read()).value);
    const messages = `${base}${/data: (\S+)/.exec(received)![1]}`;
    const refusal = (requested: string, id: unknown) => ({
      jsonrpc: '2.0',
      id,
      error: { code: -32022, message: 'Unsupported protocol version', data: { supported: HANDSHAKE_VERSIONS, requested } },
    });
    const byMeta = await post(messages, { jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: MODERN_META } });
    expect({ status: byMeta.status, body: await byMeta.json() }).toEqual({ status: 400, body: refusal('2026-07-28', 7) });
    const byHeader = await post(messages, { jsonrpc: '2.0', id: 8, method: 'tools/list' }, { 'mcp-protocol-version': '2026-07-28' });
    expect({ status: byHeader.status, body: await byHeader.json() }).toEqual({ status: 400, body: refusal('2026-07-28', 8) });
    const opening = await fetch(`${base}/sse`, { headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2026-07-28' } });
    expect({ status: opening.status, body: await opening.json() }).toEqual({ status: 400, body: refusal('2026-07-28', null) });
    // Nothing of them reached the stream, which still serves its own revision.
    expect((await post(messages, { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: '2024-11-05' } })).status).toBe(202);
    while (!received.includes('"id":0')) received += new TextDecoder().decode((await reader.read()).value);
    expect(received).toContain('"result":{"protocolVersion":"2024-11-05"');
    expect(received).not.toMatch(/"id":[78]/);
    controller.abort();
  });

  // Answers travel on the stream, so calls posted while it is open run on whatever their POSTs do:
  // the connection's maxRequestsInFlight bounds them.
  it('runs at most maxRequestsInFlight calls of one stream at once, answers the rest -32005 on it, and serves again below it', async () => {
    const limited = await serveHttp(fixtureApp(undefined, { maxRequestsInFlight: 2 }), { port: 0, legacySse: true });
    const root = limited.url.replace(/\/mcp$/, '');
    const controller = new AbortController();
    const stream = await fetch(`${root}/sse`, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
    const reader = stream.body!.getReader();
    let received = new TextDecoder().decode((await reader.read()).value);
    const messages = `${root}${/data: (\S+)/.exec(received)![1]}`;
    const until = async (text: string) => {
      while (!received.includes(text)) received += new TextDecoder().decode((await reader.read()).value);
    };
    await post(messages, { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: '2024-11-05' } });
    await until('"id":0');
    const slow = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'steps', arguments: { steps: 1, delayMs: 600_000 } } });
    for (const id of [1, 2, 3]) expect((await post(messages, slow(id))).status).toBe(202);
    await until('"id":3');
    expect(received).toContain(
      '{"jsonrpc":"2.0","id":3,"error":{"code":-32005,"message":"Too many requests in flight: this connection already runs 2; wait for some to finish (or cancel them) and send again","data":{"limit":2}}}',
    );
    await post(messages, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    await post(messages, { jsonrpc: '2.0', id: 4, method: 'ping' });
    await until('"id":4');
    expect(received).toContain('{"jsonrpc":"2.0","id":4,"result":{}}');
    controller.abort();
    await limited.close();
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
