import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateTaskResultSchema, ElicitRequestSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { HttpServerProcess } from '@mcpkit/testing';
import { startRedisServer, type RedisServer } from '../../../packages/redis/test/support/redis-server';
import { Balancer } from './support/balancer';
import { recipeConfig, startNginx, type Nginx } from './support/nginx';
import { startInstance, type Deployment, stopDeployment } from './support/notes-instances';
import { text, waitFor } from './support/waiting';

// The nginx recipe of docs/scale-out.md, run for real (#16): the config is the docs' fenced
// block with this run's ports put in (support/nginx.ts), nginx runs in the foreground from a
// temp prefix dir and is stopped by PID; behind it two child processes of apps/notes on one
// real redis-server. The official SDK client talks to nginx only (through the Balancer of the
// other scale-out suite, given nginx's origin alone: it rewrites nothing but records what the
// client sent and read). Without nginx this file fails (scripts/ensure-test-servers.js installs
// it for `pnpm test` and .ci/run). Every wait is bounded.

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

let dir: string;
let redis: RedisServer;
let nginx: Nginx;
let instances: HttpServerProcess[] = [];
const closing: Array<() => Promise<unknown>> = [];

function portOf(instance: HttpServerProcess): number {
  return Number(new URL(instance.url).port);
}

/** The access log's lines (`<status> <upstream address> "<request line>"`) of requests that ended. */
function accessLines(): Array<{ status: number; upstream: string; request: string }> {
  return nginx
    .accessLog()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [, status, upstream, request] = /^(\d+) (\S+) "(.*)"$/.exec(line) ?? [];
      return { status: Number(status), upstream, request };
    });
}

/** The JSON-RPC ids of the `tools/call`s of `sessionId` that an instance logged (its request lines at info). */
function callsServed(instance: HttpServerProcess, sessionId: string): unknown[] {
  return instance.output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg?: string; method?: string; sessionId?: string; rpcId?: unknown })
    .filter((line) => line.msg === 'request' && line.method === 'tools/call' && line.sessionId === sessionId)
    .map((line) => line.rpcId);
}

/** A v1 client (handshake era) whose every request goes to nginx. */
/** A v1 client through nginx; with `answers`, it declares elicitation and gives them in turn. */
async function throughNginx(answers?: Array<Record<string, unknown>>) {
  const lb = new Balancer([nginx.origin]);
  const client = new Client({ name: 'behind-nginx', version: '1.0.0' }, { capabilities: answers ? { elicitation: { form: {} } } : {} });
  if (answers) client.setRequestHandler(ElicitRequestSchema, async () => (answers.shift() ?? { action: 'cancel' }) as never);
  const updates: string[] = [];
  const notifications: Array<{ method: string; params?: Record<string, unknown> }> = [];
  client.fallbackNotificationHandler = async (notification) => void notifications.push(notification);
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void updates.push(notification.params.uri));
  const transport = new StreamableHTTPClientTransport(new URL(`${nginx.origin}/mcp`), { fetch: lb.fetch });
  await client.connect(transport);
  closing.push(() => client.close());
  await waitFor('the GET stream opens through nginx', () => lb.log.some((routed) => routed.method === 'GET' && routed.status === 200));
  return { client, transport, lb, updates, notifications };
}

/** A v1 client straight to one instance (no nginx): where a change is raised. */
async function direct(instance: HttpServerProcess) {
  const client = new Client({ name: 'direct', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(instance.url)));
  closing.push(() => client.close());
  return client;
}

function postThroughNginx(sessionId: string, body: string): Promise<Response> {
  return fetch(`${nginx.origin}/mcp`, { method: 'POST', headers: { ...HEADERS, 'mcp-session-id': sessionId }, body });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcpkit-scale-out-nginx-'));
  redis = await startRedisServer();
  const deployment: Deployment = {
    redisUrl: redis.url,
    database: join(dir, 'notes.db'),
    secret: 'scale-out-nginx-request-state-secret-0123456789',
    prefix: 'notes-nginx:',
  };
  // At info each instance logs a line per call it served: which one served what.
  instances = await Promise.all(['notes-A', 'notes-B'].map((name) => startInstance(deployment, name, undefined, { LOG_LEVEL: 'info' })));
  nginx = await startNginx((port) => recipeConfig([portOf(instances[0]), portOf(instances[1])], port));
}, 30_000);

afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close().catch(() => undefined)));
});

afterAll(async () => {
  await nginx?.stop();
  await stopDeployment(instances, redis, dir);
});

describe("docs/scale-out.md's nginx recipe: two notes instances on one Redis behind nginx", () => {
  it('makes a session through nginx and serves its calls from both instances (round robin, no affinity)', async () => {
    const { client, transport, lb } = await throughNginx();
    const sessionId = transport.sessionId!;
    for (let n = 1; n <= 6; n += 1) {
      expect(text(await client.callTool({ name: 'search_notes', arguments: { query: `round-${n}` } }))).toBe(`No notes match "round-${n}".`);
    }
    expect(lb.log.filter((routed) => routed.method === 'POST').every((routed) => routed.status !== undefined && routed.status < 300)).toBe(true);
    // Each instance logs the calls it served (its request lines, flushed within 100 ms): between
    // them every call of the session once, and each served some.
    const served = () => instances.map((instance) => callsServed(instance, sessionId));
    await waitFor('both instances log their calls', () => served().flat().length >= 6, 5_000);
    const [onA, onB] = served();
    expect(onA.length).toBeGreaterThan(0);
    expect(onB.length).toBeGreaterThan(0);
    expect([...onA, ...onB].sort()).toHaveLength(new Set([...onA, ...onB]).size);
    // And nginx says it sent POSTs to both upstreams.
    const upstreams = new Set(
      accessLines()
        .filter((line) => line.request.startsWith('POST /mcp'))
        .map((line) => line.upstream),
    );
    expect(upstreams).toEqual(new Set(instances.map((instance) => `127.0.0.1:${portOf(instance)}`)));
  });

  it('carries resources/updated raised on either instance to the GET stream held through nginx', async () => {
    const subscriber = await throughNginx();
    await subscriber.client.subscribeResource({ uri: 'notes://index' });
    // One change on each instance: whichever holds the stream, one of them is the other.
    await (await direct(instances[0])).callTool({ name: 'create_note', arguments: { title: 'On A', body: 'raised on A' } });
    await waitFor('the change made on A arrives', () => subscriber.updates.length >= 1);
    await (await direct(instances[1])).callTool({ name: 'create_note', arguments: { title: 'On B', body: 'raised on B' } });
    await waitFor('the change made on B arrives', () => subscriber.updates.length >= 2);
    expect(subscriber.updates).toEqual(['notes://index', 'notes://index']);
    await subscriber.client.close();
    await waitFor('nginx logs the GET stream once it ended', () => accessLines().some((line) => line.request.startsWith('GET /mcp')));
    const held = accessLines().find((line) => line.request.startsWith('GET /mcp'))!;
    expect(instances.map((instance) => `127.0.0.1:${portOf(instance)}`)).toContain(held.upstream);
  });

  it('does not buffer SSE: the questions a call asks reach its client while the call waits on them, and its progress arrives', async () => {
    // A proxy that buffered the POST's stream until it ended would hold the question, and the
    // call waits on its answer: it could never end. No clock is read.
    const { client } = await throughNginx([
      { action: 'accept', content: { title: 'Unbuffered', body: 'asked through nginx', tags: 'proxy' } },
      { action: 'accept', content: { save: true } },
    ]);
    const drafted = await client.callTool({ name: 'draft_note', arguments: { topic: 'proxies' } });
    expect(text(drafted)).toMatch(/^Saved .*Unbuffered/);

    const writer = await direct(instances[0]);
    for (let n = 1; n <= 3; n += 1) await writer.callTool({ name: 'create_note', arguments: { title: `slow ${n}`, body: 'x', tags: ['unbuffered'] } });
    let progress = 0;
    const result = await client.callTool({ name: 'export_notes', arguments: { tag: 'unbuffered', throttleMs: 50 } }, undefined, {
      onprogress: () => void (progress += 1),
    });
    expect(text(result)).toMatch(/^Exported 3 notes to /);
    expect(progress).toBe(3);
  });

  it("passes Mcp-Session-Id and Last-Event-ID: a GET through nginx resumes the session's stream after the event it names", async () => {
    const writer = await direct(instances[1]);
    for (let n = 1; n <= 4; n += 1) await writer.callTool({ name: 'create_note', arguments: { title: `task ${n}`, body: 'x', tags: ['resumed'] } });
    const { client, transport, lb, notifications } = await throughNginx();
    const sessionId = transport.sessionId!;
    const created = await client.request(
      { method: 'tools/call', params: { name: 'export_notes', arguments: { tag: 'resumed' }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    const statuses = () => notifications.filter((n) => n.method === 'notifications/tasks/status' && n.params?.taskId === created.task.taskId);
    await waitFor('the task completes', () => statuses().some((n) => n.params?.status === 'completed'));
    // Task statuses are sent outside any request: they come on the GET stream, with ids.
    const ids = lb.getEvents.filter((event) => event.id !== undefined && event.data.includes(created.task.taskId)).map((event) => event.id!);
    expect(ids).toHaveLength(5);
    await client.close();

    const resumed = await fetch(`${nginx.origin}/mcp`, {
      headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': sessionId, 'last-event-id': ids[0] },
      signal: AbortSignal.timeout(10_000),
    });
    expect(resumed.status).toBe(200);
    // The events after ids[0], in order (the priming event names the position it resumed from, with no data).
    const replayed: string[] = [];
    const reader = resumed.body!.pipeThrough(new TextDecoderStream()).getReader();
    let pending = '';
    while (replayed.length < ids.length - 1) {
      const { value, done } = await reader.read();
      if (done) break;
      pending += value;
      const events = pending.split('\n\n');
      pending = events.pop() ?? '';
      for (const event of events) {
        const id = /^id: (\S+)$/m.exec(event)?.[1];
        if (id !== undefined && event.includes(created.task.taskId)) replayed.push(id);
      }
    }
    await reader.cancel();
    expect(replayed).toEqual(ids.slice(1));
  });

  it("lets bodies up to the endpoint's limit through (nginx's default is 1 MiB) and refuses bigger ones with 413", async () => {
    const { transport } = await throughNginx();
    const call = (bytes: number) =>
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_note', arguments: { title: 'big', body: 'x'.repeat(bytes) } } });
    const big = await postThroughNginx(transport.sessionId!, call(2 * 1024 * 1024));
    // The instance answers (its own validation: a body of at most 100 000 characters).
    expect(big.status).toBe(200);
    expect(await big.json()).toMatchObject({ jsonrpc: '2.0', id: 1 });
    expect((await postThroughNginx(transport.sessionId!, call(5 * 1024 * 1024))).status).toBe(413);
  });

  it('ends the session with a DELETE through nginx, on every instance', async () => {
    const { transport, lb } = await throughNginx();
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    expect(lb.log.find((routed) => routed.method === 'DELETE')).toMatchObject({ status: 200 });
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
    expect((await postThroughNginx(sessionId, ping)).status).toBe(404);
    for (const instance of instances) {
      const answer = await fetch(instance.url, { method: 'POST', headers: { ...HEADERS, 'mcp-session-id': sessionId }, body: ping });
      expect(answer.status).toBe(404);
    }
  });
});
