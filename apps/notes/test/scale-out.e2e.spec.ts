import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateTaskResultSchema,
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import type { HttpServerProcess } from '@mcpkit/testing';
import { startRedisServer, type RedisServer } from '../../../packages/redis/test/support/redis-server';
import { Balancer, type Chooser } from './support/balancer';
import { DYNAMIC, kill, originOf, startInstance, type Deployment, stopDeployment } from './support/notes-instances';
import { text, waitFor } from './support/waiting';

// Scale-out end to end (#16): a real redis-server (its own loopback port, AOF on, stopped by PID)
// and two child processes of apps/notes (dist/main.js with REDIS_URL, the same NOTES_DB file and
// MCP_REQUEST_STATE_SECRET, PORT=0), driven by the official SDK clients (v1 on the handshake era,
// v2 pinned to 2026-07-28). The load balancer is no proxy: it is the `fetch` given to the SDK's
// StreamableHTTPClientTransport, rewriting each request's origin to the next live instance
// (A, B, A, B …: round robin without affinity). A test steers requests (`choose`) where it must
// put a stream or a handler on a given instance, and takes a killed instance out of rotation as
// a health check would. Kills are SIGKILL: no shutdown code runs. Every wait is bounded.
// 500 concurrent sends to one session from two instances (ids strictly increasing, none lost) are
// scale-out-sends.e2e.spec.ts's (and, at router level, packages/redis/test/redis-only.int.spec.ts's).

const LB = 'http://balancer.invalid/mcp';
const A = 0;
const B = 1;
const RECONNECT = { initialReconnectionDelay: 50, maxReconnectionDelay: 400, reconnectionDelayGrowFactor: 1.5, maxRetries: 30 };
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

function idOf(result: unknown): number {
  return (result as { structuredContent: { id: number } }).structuredContent.id;
}

let dir: string;
let redis: RedisServer;
let deployment: Deployment;
const instances: HttpServerProcess[] = [];
const closing: Array<() => Promise<unknown>> = [];

/** Starts (or restarts, after a kill) instance `index` of the deployment. */
async function start(index: number): Promise<HttpServerProcess> {
  instances[index] = await startInstance(deployment, `notes-${'ABCDEF'[index]}`);
  return instances[index];
}

function balancer(choose?: Chooser): Balancer {
  const lb = new Balancer(instances.map(originOf));
  lb.choose = choose;
  return lb;
}

/** A v1 client (handshake era) behind `lb`, recording the updates it hears. */
async function legacy(lb: Balancer, elicit?: (message: string) => Promise<Record<string, unknown>>) {
  const client = new Client({ name: 'scale-out', version: '1.0.0' }, { capabilities: elicit ? { elicitation: {} } : {} });
  const updates: string[] = [];
  const listChanges: number[] = [];
  const notifications: Array<{ method: string; params?: Record<string, unknown> }> = [];
  client.fallbackNotificationHandler = async (notification) => void notifications.push(notification);
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void updates.push(notification.params.uri));
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void listChanges.push(Date.now()));
  if (elicit) client.setRequestHandler(ElicitRequestSchema, async (request) => (await elicit(request.params.message)) as never);
  const transport = new StreamableHTTPClientTransport(new URL(LB), { fetch: lb.fetch, reconnectionOptions: RECONNECT });
  client.onerror = () => undefined; // stream drops are what several cases cause on purpose
  await client.connect(transport);
  closing.push(() => client.close());
  // The GET stream is opened after the handshake: wait until it is there.
  await waitFor('the GET stream opens', () => lb.log.some((routed) => routed.method === 'GET' && routed.status === 200));
  return { client, transport, updates, listChanges, notifications };
}

/** A v2 client pinned to 2026-07-28 (no session) behind `lb`. */
async function modern(lb: Balancer, answers: Array<Record<string, unknown>> = []) {
  const client = new ModernClient(
    { name: 'scale-out-2026', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const updates: string[] = [];
  let asked = 0;
  client.setRequestHandler('elicitation/create', async () => (answers[asked++] ?? { action: 'cancel' }) as never);
  client.setNotificationHandler('notifications/resources/updated', (notification) => void updates.push((notification.params as { uri: string }).uri));
  await client.connect(new ModernTransport(new URL(LB), { fetch: lb.fetch }));
  closing.push(() => client.close());
  return { client, updates };
}

/** A raw POST to one instance, for what the SDK client does not show (statuses, headers). */
function post(index: number, sessionId: string, body: unknown): Promise<Response> {
  return fetch(instances[index].url, { method: 'POST', headers: { ...HEADERS, 'mcp-session-id': sessionId }, body: JSON.stringify(body) });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcpkit-scale-out-'));
  redis = await startRedisServer({ appendOnly: true });
  deployment = { redisUrl: redis.url, database: join(dir, 'notes.db'), secret: 'scale-out-e2e-request-state-secret-0123456789', prefix: 'notes-e2e:' };
  await Promise.all([start(A), start(B)]);
}, 30_000);

afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close().catch(() => undefined)));
  if (redis.pid === undefined) await redis.restart();
  // A case that killed A (or failed before it restarted it) leaves the next one two instances.
  const dead = [A, B].filter((index) => instances[index].child.exitCode !== null || instances[index].child.signalCode !== null);
  await Promise.all(dead.map(start));
}, 30_000);

afterAll(async () => {
  await stopDeployment(instances, redis, dir);
});

describe('notes scaled out on Redis: two instances behind a round-robin balancer', () => {
  it('serves a session made on A from B, request after request', async () => {
    const lb = balancer();
    const { client, transport } = await legacy(lb);
    const created = await client.callTool({ name: 'create_note', arguments: { title: 'Anywhere', body: 'made on one, read on the other' } });
    const id = idOf(created);
    expect(text(await client.callTool({ name: 'search_notes', arguments: { query: 'read on the other' } }))).toBe(`#${id} Anywhere`);
    expect((await client.readResource({ uri: `notes://${id}` })).contents[0]).toMatchObject({ text: expect.stringContaining('made on one') });
    await client.listTools();

    const posts = lb.log.filter((routed) => routed.method === 'POST');
    expect(posts[0]).toMatchObject({ rpc: 'initialize', to: A, status: 200 });
    expect(new Set(posts.map((routed) => routed.to))).toEqual(new Set([A, B]));
    expect(posts.every((routed) => routed.status !== undefined && routed.status < 300)).toBe(true);
    expect(transport.sessionId).toMatch(/^[\w-]{16,}$/);
  });

  it('answers 404 for an unknown session on every instance, and for one ended through another instance', async () => {
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    expect((await post(A, 'no-such-session', ping)).status).toBe(404);
    expect((await post(B, 'no-such-session', ping)).status).toBe(404);

    const lb = balancer(({ method }) => (method === 'DELETE' ? A : undefined));
    const { transport } = await legacy(lb);
    const sessionId = transport.sessionId!;
    expect((await post(B, sessionId, ping)).status).toBe(200);
    await transport.terminateSession();
    expect(lb.log.find((routed) => routed.method === 'DELETE')).toMatchObject({ to: A, status: 200 });
    expect((await post(B, sessionId, ping)).status).toBe(404);
  });

  it('resolves on B an elicitation its handler sent, answered by a POST that reached A', async () => {
    const lb = balancer(({ rpc }) => (rpc === 'tools/call' ? B : rpc === 'response' ? A : undefined));
    const answers = [
      { action: 'accept', content: { title: 'Crossed', body: 'asked on B, answered on A' } },
      { action: 'accept', content: { save: true } },
    ];
    const asked: string[] = [];
    const { client } = await legacy(lb, async (message) => (asked.push(message), answers[asked.length - 1]));
    const result = await client.callTool({ name: 'draft_note', arguments: {} });
    expect(text(result)).toMatch(/^Saved #\d+ Crossed\.$/);
    expect(asked).toEqual(['Write a note.', expect.stringContaining('asked on B, answered on A')]);
    // The handler on B may finish before A has answered the second POST: its status comes after.
    await waitFor('both answers are acknowledged', () => lb.log.filter((routed) => routed.rpc === 'response' && routed.status !== undefined).length === 2);
    expect(lb.log.filter((routed) => routed.rpc === 'response')).toEqual([
      expect.objectContaining({ to: A, status: 202 }),
      expect.objectContaining({ to: A, status: 202 }),
    ]);
    expect(lb.log.find((routed) => routed.rpc === 'tools/call')).toMatchObject({ to: B });
  });

  it('sends resources/updated raised on B to the subscribers only, wherever their stream is', async () => {
    const writer = await legacy(balancer(() => B));
    const x = idOf(await writer.client.callTool({ name: 'create_note', arguments: { title: 'X', body: 'x' } }));
    const y = idOf(await writer.client.callTool({ name: 'create_note', arguments: { title: 'Y', body: 'y' } }));
    // The subscriber's stream is on A, the other client's on B.
    const subscriber = await legacy(balancer(({ method }) => (method === 'GET' ? A : undefined)));
    const other = await legacy(balancer(({ method }) => (method === 'GET' ? B : undefined)));
    await subscriber.client.subscribeResource({ uri: 'notes://index' });
    await subscriber.client.subscribeResource({ uri: `notes://${x}` });
    await other.client.subscribeResource({ uri: `notes://${y}` });

    await writer.client.callTool({ name: 'update_note', arguments: { id: x, body: 'x, changed on B' } });
    await writer.client.callTool({ name: 'update_note', arguments: { id: y, body: 'y, changed on B' } });
    await waitFor('both hear of their changes', () => subscriber.updates.length >= 3 && other.updates.length >= 1);
    // What should not come would have come first: the changes are sent in order.
    expect(subscriber.updates).toEqual(['notes://index', `notes://${x}`, 'notes://index']);
    expect(other.updates).toEqual([`notes://${y}`]);
    expect(writer.updates).toEqual([]);
  });

  it('2026-07-28: a subscriptions/listen stream on A hears of a change made on B', async () => {
    const listener = await modern(balancer(({ rpc }) => (rpc === 'subscriptions/listen' ? A : B)));
    const subscription = await listener.client.listen({ resourceSubscriptions: ['notes://index'] });
    const writer = await modern(balancer(() => B));
    await writer.client.callTool({ name: 'create_note', arguments: { title: 'Listened', body: 'from B' } });
    await waitFor('the listen stream hears of it', () => listener.updates.length >= 1);
    expect(listener.updates).toEqual(['notes://index']);
    await subscription.close();
  });

  it('2026-07-28: accepts on B the requestState that A minted (the shared MCP_REQUEST_STATE_SECRET)', async () => {
    let calls = 0;
    const lb = balancer(({ rpc }) => (rpc === 'tools/call' ? (calls++ === 0 ? A : B) : undefined));
    const { client } = await modern(lb, [
      { action: 'accept', content: { title: 'Sealed', body: 'round one on A' } },
      { action: 'accept', content: { save: true } },
    ]);
    expect(text(await client.callTool({ name: 'draft_note', arguments: {} }))).toMatch(/^Saved #\d+ Sealed\.$/);
    expect(lb.log.filter((routed) => routed.rpc === 'tools/call').map((routed) => [routed.to, routed.status])).toEqual([
      [A, 200],
      [B, 200],
      [B, 200],
    ]);
  });

  it('carries tools/list_changed raised on one instance to the GET stream held by another, and replays one raised while no stream was open', async () => {
    // notes never changes its lists: two more instances run it with `dynamic: true` and `add_tool`.
    const c = await startInstance(deployment, 'notes-C', DYNAMIC);
    const d = await startInstance(deployment, 'notes-D', DYNAMIC);
    closing.push(async () => {
      await Promise.all([c.stop(), d.stop()]);
    });
    const lb = new Balancer([originOf(c), originOf(d)]);
    lb.choose = ({ method }) => (method === 'GET' ? 0 : 1);
    const { client, listChanges } = await legacy(lb);
    expect(text(await client.callTool({ name: 'add_tool', arguments: {} }))).toBe('added extra_1');
    await waitFor('the GET stream on C hears of the change on D', () => listChanges.length >= 1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('extra_1');

    // C dies with the stream; D changes its list while nobody reads; the stream resumes on D.
    await kill(c);
    lb.down(0);
    lb.choose = () => 1;
    expect(text(await client.callTool({ name: 'add_tool', arguments: {} }))).toBe('added extra_2');
    await waitFor('the resumed stream hears of the change made while it was away', () => listChanges.length >= 2);
    expect(lb.log.filter((routed) => routed.method === 'GET' && routed.to === 1)[0]).toMatchObject({ status: 200, lastEventId: expect.any(String) });
  });
});

describe('notes scaled out on Redis: faults', () => {
  it('resumes the GET stream of a killed instance on another with Last-Event-ID: every event once, in order', async () => {
    // The events: the status notifications of a task that runs on B while A holds the GET stream.
    const writer = await legacy(balancer(() => B));
    const notes: number[] = [];
    for (let n = 1; n <= 6; n += 1) {
      notes.push(idOf(await writer.client.callTool({ name: 'create_note', arguments: { title: `r${n}`, body: 'resume', tags: ['resume'] } })));
    }
    const lb = balancer(({ method }) => (method === 'GET' ? A : B));
    const reader = await legacy(lb);
    await reader.client.subscribeResource({ uri: `notes://${notes[0]}` });
    const created = await reader.client.request(
      { method: 'tools/call', params: { name: 'export_notes', arguments: { tag: 'resume', throttleMs: 150 }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    const statuses = () => reader.notifications.filter((n) => n.method === 'notifications/tasks/status' && n.params?.taskId === created.task.taskId);
    await waitFor('the stream on A delivers the first statuses', () => statuses().length >= 2);

    await kill(instances[A]);
    lb.down(A);
    const atKill = lb.log.length;
    // The client reconnects after the server's retry (1 s): meanwhile no stream is open anywhere
    // while a resource update is raised and task statuses pile up in the log.
    await writer.client.callTool({ name: 'update_note', arguments: { id: notes[0], body: 'changed while A was dead' } });
    await new Promise((resolve) => setTimeout(resolve, 300)); // two of the task's 150 ms steps
    const seenWhileAway = statuses().length;
    const away = lb.log.slice(atKill);
    lb.choose = () => B;
    await waitFor('the task completes', () => statuses().some((n) => n.params?.status === 'completed'), 15_000);
    await waitFor('the update made while no stream was open arrives', () => reader.updates.length >= 1);
    const seen = statuses().map((n) => `${String(n.params?.status)} ${String(n.params?.statusMessage ?? '')}`.trim());
    expect(seen).toEqual([...Array.from({ length: 6 }, (_, i) => `working ${i + 1} of 6 notes`), expect.stringMatching(/^completed/)]);
    expect(seenWhileAway).toBeLessThan(7);
    expect(away.filter((routed) => routed.method === 'GET' && routed.status === 200)).toEqual([]);
    const resumed = lb.log.filter((routed) => routed.method === 'GET' && routed.to === B);
    expect(resumed[0]).toMatchObject({ status: 200, lastEventId: expect.stringMatching(/^g_\d+-\d+_\d+-\d+$/) });
    // A sentinel after it: a second copy of the replayed update would have come before.
    await writer.client.callTool({ name: 'update_note', arguments: { id: notes[0], body: 'sentinel' } });
    await waitFor('the sentinel arrives', () => reader.updates.length >= 2);
    expect(reader.updates).toEqual([`notes://${notes[0]}`, `notes://${notes[0]}`]);
    // Every event id of the GET stream once, across the two instances: each moves its GET-log or
    // its broadcast position on, and neither goes back.
    const ids = lb.getEvents.filter((event) => event.id !== undefined).map((event) => /^g_(\d+)-(\d+)_(\d+)-(\d+)$/.exec(event.id!)!.slice(1).map(BigInt));
    expect(ids.length).toBeGreaterThanOrEqual(7);
    const order = (x: bigint[], y: bigint[], at: number): number => (x[at] === y[at] ? Number(x[at + 1] - y[at + 1]) : x[at] > y[at] ? 1 : -1);
    for (let i = 1; i < ids.length; i += 1) {
      const [log, broadcasts] = [order(ids[i], ids[i - 1], 0), order(ids[i], ids[i - 1], 2)];
      expect([log >= 0, broadcasts >= 0, log > 0 || broadcasts > 0]).toEqual([true, true, true]);
    }
  });

  it('fails the request of an instance killed while its handler waits for an elicitation: the client resumes its POST stream on B, which answers -32603; the late answer gets 202 and is logged as waiter-gone', async () => {
    const lb = balancer(({ rpc }) => (rpc === 'tools/call' ? A : B));
    const victim = instances[A];
    const { client } = await legacy(lb, async () => {
      await kill(victim);
      lb.down(A);
      return { action: 'accept', content: { title: 'Orphan', body: 'never saved' } };
    });
    // The server's answer, not the client's timeout (which would reject with another code and
    // message): B follows the resumed stream and, once A's inbox has stayed without a subscriber
    // for its grace (2 s), fails the request.
    await expect(client.callTool({ name: 'draft_note', arguments: {} }, undefined, { timeout: 20_000 })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining('The server instance serving this request ended before answering'),
    });
    expect(lb.log.find((routed) => routed.method === 'GET' && routed.lastEventId !== undefined && routed.lastEventId.includes('-s'))).toMatchObject({
      to: B,
      status: 200,
    });
    expect(lb.log.find((routed) => routed.rpc === 'response')).toMatchObject({ to: B, status: 202 });
    await instances[B].waitForOutput('waiter-gone');
    await start(A);
    const check = await legacy(balancer());
    expect(text(await check.client.callTool({ name: 'search_notes', arguments: { query: 'never saved' } }))).toBe('No notes match "never saved".');
  });

  it('answers 503 with Retry-After while Redis is down, keeps 2026-07-28 serving, and recovers the same session when Redis is back (AOF)', async () => {
    const lb = balancer(({ method }) => (method === 'GET' ? A : undefined));
    const { client, transport, updates } = await legacy(lb);
    const sessionId = transport.sessionId!;
    await client.subscribeResource({ uri: 'notes://index' });
    const stateless = await modern(balancer());

    await redis.kill('SIGKILL');
    const down = await post(B, sessionId, { jsonrpc: '2.0', id: 7, method: 'ping' });
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await post(A, sessionId, { jsonrpc: '2.0', id: 8, method: 'ping' })).status).toBe(503);
    await expect(client.callTool({ name: 'search_notes', arguments: { query: 'x' } })).rejects.toThrow(/unavailable/);
    expect(lb.log.at(-1)).toMatchObject({ method: 'POST', rpc: 'tools/call', status: 503 });
    expect(text(await stateless.client.callTool({ name: 'search_notes', arguments: { query: 'no-such-note-here' } }))).toBe(
      'No notes match "no-such-note-here".',
    );

    await redis.restart();
    // The instances reconnect by themselves; until they have, a request may still get 503.
    await waitFor('the session is served again', async () => (await post(B, sessionId, { jsonrpc: '2.0', id: 9, method: 'ping' })).status === 200);
    expect(text(await client.callTool({ name: 'create_note', arguments: { title: 'After the outage', body: 'same session' } }))).toContain('After the outage');
    await waitFor('pub/sub delivery resumes without restarting an instance', () => updates.includes('notes://index'), 15_000);
  });

  it('after a restart of a Redis without persistence: 404, and the client initialises a new session', async () => {
    const volatile = await startRedisServer();
    const e = await startInstance({ ...deployment, redisUrl: volatile.url }, 'notes-E');
    const f = await startInstance({ ...deployment, redisUrl: volatile.url }, 'notes-F');
    closing.push(async () => {
      await Promise.all([e.stop(), f.stop()]);
      await volatile.stop();
    });
    const lb = new Balancer([originOf(e), originOf(f)]);
    const first = await legacy(lb);
    await first.client.listTools();
    await volatile.restart();
    const sessionId = first.transport.sessionId!;
    // Each instance reconnects on its own: the client's next request may go to either.
    await waitFor('Redis answers both instances again, without the session', async () => {
      const statuses = await Promise.all(
        [e, f].map(
          async (instance) =>
            (
              await fetch(instance.url, {
                method: 'POST',
                headers: { ...HEADERS, 'mcp-session-id': sessionId },
                body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
              })
            ).status,
        ),
      );
      return statuses.every((status) => status === 404);
    });
    await expect(first.client.listTools()).rejects.toThrow(/404|not found/i);
    const again = await legacy(lb);
    expect(again.transport.sessionId).not.toBe(sessionId);
    expect((await again.client.listTools()).tools.length).toBeGreaterThan(0);
  });
});
