import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HttpServerProcess, OtlpReceiver, StubAuthorizationServer, type OtlpSpan } from '@mcpkit/testing';
import { freePort } from '../../../packages/redis/test/support/redis-server';
import { startStockService, type StockService } from './support/stock-service';

// The built gateway (apps/gateway/dist/main.js) in its authenticated mode, started once: it
// mounts the notes app, spawns apps/everything on stdio, proxies a second notes process over HTTP
// (GATEWAY_NOTES_URL) and offers a Fastify service's operations from the document
// @fastify/swagger writes (GATEWAY_REST_URL). The gateway and the second notes export their spans
// to one OTLP receiver. Driven by the official clients over loopback HTTP: the v1 SDK client on
// the legacy era, the v2 client pinned to 2026-07-28.
const GATEWAY_MAIN = join(__dirname, '..', 'dist', 'main.js');
const NOTES_MAIN = join(__dirname, '..', '..', 'notes', 'dist', 'main.js');
const CLIENT_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CLIENT_SPAN = 'b7ad6b7169203331';

type Result = { content?: Array<{ type: string; text?: string }>; isError?: boolean; structuredContent?: Record<string, unknown> };
/** What both official clients offer, as this test uses it. */
interface Caller {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  listResources(): Promise<{ resources: Array<{ uri: string }> }>;
  listResourceTemplates(): Promise<{ resourceTemplates: Array<{ uriTemplate: string }> }>;
  listPrompts(): Promise<{ prompts: Array<{ name: string }> }>;
  callTool(params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> }, ...rest: unknown[]): Promise<unknown>;
  readResource(params: { uri: string }): Promise<{ contents: Array<{ uri: string; text?: unknown }> }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<{ messages: Array<{ content: unknown }> }>;
  close(): Promise<void>;
}

async function until<T>(find: () => T | undefined, what: string, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what} did not come within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const text = (result: unknown) => ((result as Result).content ?? []).map((block) => block.text ?? '').join('\n');
const names = <T extends { name: string }>(list: T[]) => list.map((entry) => entry.name);

let dir: string;
let otlp: OtlpReceiver;
let as: StubAuthorizationServer;
let stock: StockService;
let remoteNotes: HttpServerProcess;
let gateway: HttpServerProcess;
let resource: string;
const tokens: { admin: string; reader: string } = { admin: '', reader: '' };
const clients: Caller[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcpkit-gateway-'));
  [otlp, as, stock] = await Promise.all([OtlpReceiver.start(), StubAuthorizationServer.start(), startStockService()]);
  const telemetry = (service: string) => ({
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_SERVICE_NAME: service,
    // Spans leave every 100 ms, so the test reads them while the processes run.
    OTEL_BSP_SCHEDULE_DELAY: '100',
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_LOGS_EXPORTER: 'none',
  });
  resource = `http://127.0.0.1:${await freePort()}/mcp`;
  remoteNotes = await HttpServerProcess.start(process.execPath, [NOTES_MAIN], {
    NOTES_DB: join(dir, 'remote.db'),
    NOTES_EXPORT_DIR: join(dir, 'remote-exports'),
    ...telemetry('remote-notes'),
  });
  gateway = await HttpServerProcess.start(
    process.execPath,
    [GATEWAY_MAIN],
    {
      PORT: new URL(resource).port,
      LOG_LEVEL: 'info',
      NOTES_DB: join(dir, 'gateway.db'),
      NOTES_EXPORT_DIR: join(dir, 'gateway-exports'),
      GATEWAY_AUTH_ISSUER: as.issuer,
      GATEWAY_AUTH_RESOURCE: resource,
      GATEWAY_NOTES_URL: remoteNotes.url,
      GATEWAY_REST_URL: stock.baseUrl,
      ...telemetry('gateway'),
    },
    30_000,
  );
  [tokens.admin, tokens.reader] = await Promise.all([
    as.mint({ aud: resource, sub: 'ada', scope: 'notes:write', claims: { client_id: 'gateway-e2e', roles: ['admin'] } }),
    as.mint({ aud: resource, sub: 'bob', scope: 'notes:read', claims: { client_id: 'gateway-e2e' } }),
  ]);
  // Two processes start one after the other (the gateway spawns a third): on a loaded machine that takes a while.
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  // A clean exit: the gateway closes its HTTP server, stops the everything child, flushes its spans.
  if (gateway) expect(await gateway.stop()).toEqual({ code: 0, signal: null });
  await remoteNotes?.stop();
  await Promise.allSettled([stock?.close(), as?.close(), otlp?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const ERAS = [
  {
    era: 'legacy (official SDK v1 client)',
    async connect(token: string): Promise<Caller> {
      const client = new Client({ name: 'gateway-e2e', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      clients.push(client as unknown as Caller);
      return client as unknown as Caller;
    },
  },
  {
    era: '2026-07-28 (official v2 client, pinned)',
    async connect(token: string): Promise<Caller> {
      const client = new ModernClient({ name: 'gateway-e2e', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new ModernTransport(new URL(gateway.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      expect(client.getProtocolEra()).toBe('modern');
      clients.push(client as unknown as Caller);
      return client as unknown as Caller;
    },
  },
];

describe.each(ERAS)('the gateway, $era', ({ era, connect }) => {
  let admin: Caller;
  beforeAll(async () => {
    admin = await connect(tokens.admin);
  });

  it('offers every kind of item of every source under its prefix', async () => {
    expect(names((await admin.listTools()).tools)).toEqual(
      expect.arrayContaining([
        'notes_create_note',
        'notes_delete_note',
        'everything_test_simple_text',
        'remote_create_note',
        'rest_getStock',
        'rest_receiveStock',
        'rest_deleteStock',
      ]),
    );
    expect((await admin.listResources()).resources.map((entry) => entry.uri)).toEqual(
      expect.arrayContaining(['notes+notes://index', 'everything+test://static-text', 'remote+notes://index']),
    );
    expect((await admin.listResourceTemplates()).resourceTemplates.map((entry) => entry.uriTemplate)).toEqual(
      expect.arrayContaining(['notes+notes://{id}', 'everything+test://template/{id}/data', 'remote+notes://{id}']),
    );
    expect(names((await admin.listPrompts()).prompts)).toEqual(
      expect.arrayContaining(['notes_summarize_notes', 'everything_test_simple_prompt', 'remote_summarize_notes']),
    );
  });

  it('calls a tool, reads a resource and a template, and gets a prompt through the mount and both proxies', async () => {
    const title = `Gateway ${era}`;
    for (const prefix of ['notes', 'remote']) {
      const created = (await admin.callTool({ name: `${prefix}_create_note`, arguments: { title, body: `through ${prefix}`, tags: [] } })) as Result;
      const id = (created.structuredContent as { id: number }).id;
      expect((await admin.readResource({ uri: `${prefix}+notes://index` })).contents[0].text).toContain(title);
      expect((await admin.readResource({ uri: `${prefix}+notes://${id}` })).contents[0]).toMatchObject({ text: expect.stringContaining(`through ${prefix}`) });
      expect(JSON.stringify((await admin.getPrompt({ name: `${prefix}_summarize_notes`, arguments: { topic: title } })).messages)).toContain(title);
    }
    expect(text(await admin.callTool({ name: 'everything_test_simple_text', arguments: {} }))).toBe('This is a simple text response for testing.');
    expect((await admin.readResource({ uri: 'everything+test://static-text' })).contents[0].text).toEqual(expect.any(String));
    expect((await admin.readResource({ uri: 'everything+test://template/7/data' })).contents[0].text).toBe(
      '{"id":"7","templateTest":true,"data":"Data for ID: 7"}',
    );
    expect((await admin.getPrompt({ name: 'everything_test_simple_prompt' })).messages[0].content).toMatchObject({ type: 'text' });
  });

  it("calls the REST service's operations, generated from its @fastify/swagger document", async () => {
    const before = stock.calls.receiveStock ?? 0;
    expect(((await admin.callTool({ name: 'rest_getStock', arguments: { sku: 'SKU-1' } })) as Result).structuredContent).toMatchObject({ sku: 'SKU-1' });
    const received = (await admin.callTool({ name: 'rest_receiveStock', arguments: { sku: 'SKU-2', body: { quantity: 3 } } })) as Result;
    expect(received.structuredContent).toMatchObject({ sku: 'SKU-2', quantity: expect.any(Number) });
    expect(stock.calls.receiveStock).toBe(before + 1);
    // The API's 404 is the tool's error result; invalid arguments never reach the service.
    expect(await admin.callTool({ name: 'rest_getStock', arguments: { sku: 'nope' } })).toMatchObject({ isError: true });
    expect(await admin.callTool({ name: 'rest_receiveStock', arguments: { sku: 'SKU-2', body: { quantity: 0 } } })).toMatchObject({ isError: true });
    expect(stock.calls.receiveStock).toBe(before + 1);
    // An admin may call a DELETE operation (the reader's case below finds no such tool).
    const deletes = stock.calls.deleteStock ?? 0;
    expect(((await admin.callTool({ name: 'rest_deleteStock', arguments: { sku: 'SKU-3' } })) as Result).isError).toBeFalsy();
    expect(stock.calls.deleteStock).toBe(deletes + 1);
  });

  it("relays the proxied tool's progress to the caller", async () => {
    const progress: number[] = [];
    const onprogress = (update: { progress: number }) => void progress.push(update.progress);
    // The v1 client takes the call's options third, the v2 client second.
    const result = era.startsWith('legacy')
      ? await admin.callTool({ name: 'everything_test_tool_with_progress', arguments: {} }, undefined, { onprogress })
      : await admin.callTool({ name: 'everything_test_tool_with_progress', arguments: {} }, { onprogress });
    expect((result as Result).isError).toBeFalsy();
    // The proxy passes on the latest update of each turn: on a loaded machine two of the remote's
    // steps can arrive in one read, and only the later one goes on. In order, ending at 100.
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([0, 50, 100].filter((step) => progress.includes(step)));
  });

  it('hides from a reader what its token may not reach, and refuses it as an unknown tool', async () => {
    const reader = await connect(tokens.reader);
    const deletes = stock.calls.deleteStock ?? 0;
    const listed = names((await reader.listTools()).tools);
    expect(listed).toContain('notes_search_notes');
    expect(listed).toContain('remote_search_notes');
    // The notes' own role rule (mounted), and the gateway's rule on what an upstream calls destructive (proxied).
    expect(listed).not.toContain('notes_delete_note');
    expect(listed).not.toContain('remote_delete_note');
    // The REST service's DELETE knows no more of the gateway's callers than a proxied server does.
    expect(listed).toContain('rest_getStock');
    expect(listed).not.toContain('rest_deleteStock');
    await expect(reader.callTool({ name: 'notes_delete_note', arguments: { id: 1 } })).rejects.toMatchObject({ code: -32602 });
    await expect(reader.callTool({ name: 'remote_delete_note', arguments: { id: 1 } })).rejects.toMatchObject({ code: -32602 });
    await expect(reader.callTool({ name: 'rest_deleteStock', arguments: { sku: 'SKU-1' } })).rejects.toMatchObject({ code: -32602 });
    expect(stock.calls.deleteStock ?? 0).toBe(deletes);
    await expect(reader.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });
});

describe('the gateway at its door, in its log and in the trace', () => {
  it('does not start with a malformed or unreachable upstream, and says which', async () => {
    const exit = (env: NodeJS.ProcessEnv) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) =>
        execFile(process.execPath, [GATEWAY_MAIN], { env: { ...process.env, PORT: '0', NOTES_DB: ':memory:', ...env } }, (error, _stdout, stderr) =>
          resolve({ code: error ? (error.code as number) : 0, stderr }),
        ),
      );
    const unreachable = `http://127.0.0.1:${await freePort()}/mcp`;
    const [malformed, away] = await Promise.all([exit({ GATEWAY_NOTES_URL: 'notes.internal:3001' }), exit({ GATEWAY_NOTES_URL: unreachable })]);
    expect(malformed).toEqual({ code: 1, stderr: 'gateway could not start: GATEWAY_NOTES_URL must be an absolute http(s) URL, got "notes.internal:3001"\n' });
    expect(away.code).toBe(1);
    expect(away.stderr).toContain(`gateway could not start: the notes server at ${unreachable} (GATEWAY_NOTES_URL): `);
  });

  it('answers a request without a token 401 with a Bearer challenge', async () => {
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"/,
    );
  });

  it('writes a request line naming the caller of every path (mounted, proxied on stdio and HTTP, OpenAPI, refused), and passes no token on', async () => {
    const [client, reader] = await Promise.all([ERAS[0].connect(tokens.admin), ERAS[0].connect(tokens.reader)]);
    const called = ['notes_search_notes', 'everything_test_simple_text', 'remote_search_notes', 'rest_getStock'];
    const args: Record<string, Record<string, unknown>> = {
      notes_search_notes: { query: 'audit' },
      remote_search_notes: { query: 'audit' },
      rest_getStock: { sku: 'SKU-1' },
    };
    for (const name of called) await client.callTool({ name, arguments: args[name] ?? {} });
    await expect(reader.callTool({ name: 'rest_deleteStock', arguments: { sku: 'SKU-1' } })).rejects.toMatchObject({ code: -32602 });
    const lines = () =>
      gateway.output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const name of called) {
      const line = await until(
        () => lines().find((entry) => entry.msg === 'request' && entry.target === name && entry.subject === 'ada'),
        `the request line of ${name}`,
      );
      expect(line).toMatchObject({ method: 'tools/call', outcome: 'ok', subject: 'ada', clientId: 'gateway-e2e' });
    }
    const refused = await until(
      () => lines().find((entry) => entry.msg === 'request' && entry.target === 'rest_deleteStock' && entry.subject === 'bob'),
      'the refusal',
    );
    expect(refused.outcome).not.toBe('ok');
    expect(gateway.output).not.toContain(tokens.admin);
    // The REST service is called as the gateway (no credentials here), never with the caller's token.
    expect(stock.authorizations).toEqual([]);
  });

  it("continues the caller's trace across the hop: the remote's span is a child of the gateway's", async () => {
    const client = await ERAS[0].connect(tokens.admin);
    await client.callTool({
      name: 'remote_search_notes',
      arguments: { query: 'traced' },
      _meta: { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01` },
    });
    const spans = () => otlp.spans().filter((span) => span.traceId === CLIENT_TRACE);
    const find = (name: string, kind: number) => spans().find((span) => span.name === name && span.kind === kind);
    const served = await until(() => find('tools/call remote_search_notes', 2), "the gateway's span");
    const hop = await until(() => find('tools/call', 3), "the gateway's span of the hop");
    const remote: OtlpSpan = await until(() => find('tools/call search_notes', 2), "the remote's span");
    expect(served.parentSpanId).toBe(CLIENT_SPAN);
    expect(hop.parentSpanId).toBe(served.spanId);
    expect(remote.parentSpanId).toBe(hop.spanId);
  });
});
