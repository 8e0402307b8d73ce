import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { HttpServerProcess } from '@mcpkit/testing';
import { startRedisServer, type RedisServer } from '../../../packages/redis/test/support/redis-server';
import { Balancer } from './support/balancer';
import { DYNAMIC, kill, originOf, startInstance, type Deployment } from './support/notes-instances';
import { text, waitFor } from './support/waiting';

// Broadcasts across GET-stream resumption (#16): a list change and a resource update raised on
// B while the session's GET stream is open nowhere (its instance A was SIGKILLed, the client's
// reconnect is held at the balancer) reach the stream resumed on B exactly once, and nothing
// heard live before is heard again. Run for a 2025-06-18 client (no priming event: one that
// heard nothing has no Last-Event-ID) and a 2025-11-25 one (primed: it always has one), with the
// official SDK v1 client over real sockets to two child processes of apps/notes (the `dynamic`
// entry, whose `add_tool` changes the tool list) sharing one redis-server. Every wait is bounded.

const LB = 'http://balancer.invalid/mcp';
const A = 0;
const B = 1;
const RECONNECT = { initialReconnectionDelay: 50, maxReconnectionDelay: 400, reconnectionDelayGrowFactor: 1.5, maxRetries: 30 };

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let dir: string;
let redis: RedisServer;
let deployment: Deployment;
let instances: HttpServerProcess[] = [];
let client: Client | undefined;
let cases = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcpkit-scale-out-bcast-'));
  redis = await startRedisServer();
}, 30_000);

beforeEach(async () => {
  // A fresh deployment per case (its own prefix): each case kills A.
  deployment = {
    redisUrl: redis.url,
    database: join(dir, `notes-${++cases}.db`),
    secret: 'scale-out-bcast-request-state-secret-0123456789',
    prefix: `bcast-${cases}:`,
  };
  instances = await Promise.all([startInstance(deployment, 'notes-A', DYNAMIC), startInstance(deployment, 'notes-B', DYNAMIC)]);
}, 30_000);

afterEach(async () => {
  await client?.close().catch(() => undefined);
  client = undefined;
  await Promise.all(instances.filter((instance) => instance.child.exitCode === null && instance.child.signalCode === null).map((instance) => instance.stop()));
}, 30_000);

afterAll(async () => {
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** What the GETs the client made carried, as the balancer saw them. */
interface SeenGet {
  lastEventId: string | undefined;
  version: string | undefined;
}

/**
 * A v1 client of `revision` behind a balancer that sends GETs to A and everything else to B.
 * The SDK asks for its newest revision: for an older one the balancer rewrites the initialize
 * it forwards, as a client of that revision would have sent it. GETs wait while `hold` is set.
 */
async function connect(revision: string) {
  const lb = new Balancer(instances.map(originOf));
  lb.choose = ({ method }) => (method === 'GET' ? A : B);
  const gets: SeenGet[] = [];
  const gate: { hold: Promise<void> | undefined } = { hold: undefined };
  const fetchVia = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const method = (init?.method ?? 'GET').toUpperCase();
    if (method === 'GET') {
      const headers = new Headers(init?.headers);
      gets.push({ lastEventId: headers.get('last-event-id') ?? undefined, version: headers.get('mcp-protocol-version') ?? undefined });
      if (gate.hold) await gate.hold;
    }
    if (method === 'POST' && typeof init?.body === 'string' && init.body.includes('"initialize"')) {
      const body = JSON.parse(init.body) as { method?: string; params?: { protocolVersion?: string } };
      if (body.method === 'initialize' && body.params) body.params.protocolVersion = revision;
      return lb.fetch(input, { ...init, body: JSON.stringify(body) });
    }
    return lb.fetch(input, init);
  };
  const made = new Client({ name: `bcast-${revision}`, version: '1.0.0' }, { capabilities: {} });
  const updates: string[] = [];
  let listChanges = 0;
  made.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void updates.push(notification.params.uri));
  made.setNotificationHandler(ToolListChangedNotificationSchema, () => void (listChanges += 1));
  made.onerror = () => undefined; // the stream drops on purpose
  const transport = new StreamableHTTPClientTransport(new URL(LB), { fetch: fetchVia, reconnectionOptions: RECONNECT });
  await made.connect(transport);
  client = made;
  await waitFor('the GET stream opens on A', () => lb.log.some((routed) => routed.method === 'GET' && routed.to === A && routed.status === 200));
  return { client: made, transport, lb, gets, gate, updates, listChanges: () => listChanges };
}

describe.each([
  { revision: '2025-06-18', live: false, resumesWithId: false },
  { revision: '2025-06-18', live: true, resumesWithId: true },
  { revision: '2025-11-25', live: true, resumesWithId: true },
])('broadcasts across a resumption, $revision client (a broadcast heard live first: $live)', ({ revision, live, resumesWithId }) => {
  it('delivers a list change and a resource update raised while no stream was open exactly once on the other instance, and repeats nothing heard before', async () => {
    const session = await connect(revision);
    expect(session.transport.protocolVersion).toBe(revision);
    const created = await session.client.callTool({ name: 'create_note', arguments: { title: 'Watched', body: 'v1' } });
    const id = (created as unknown as { structuredContent: { id: number } }).structuredContent.id;
    const uri = `notes://${id}`;
    // Creating it broadcast an update too, before the subscription: never heard, live or on resumption.
    await session.client.subscribeResource({ uri });
    let tools = 0;
    if (live) {
      // Raised on B, heard on A's stream: it carries an id, so even a 2025-06-18 client has a Last-Event-ID now.
      expect(text(await session.client.callTool({ name: 'add_tool', arguments: {} }))).toBe(`added extra_${++tools}`);
      await waitFor('the live list change arrives on A', () => session.listChanges() === 1);
    }

    expect({ listChanges: session.listChanges(), updates: session.updates }).toEqual({ listChanges: live ? 1 : 0, updates: [] });

    // A dies with the stream; the client's reconnect waits at the balancer: no stream is open anywhere.
    let release!: () => void;
    session.gate.hold = new Promise((resolve) => (release = resolve));
    const getsBefore = session.gets.length;
    await kill(instances[A]);
    session.lb.down(A);
    session.lb.choose = () => B;
    await waitFor('the client tries to reconnect', () => session.gets.length > getsBefore);
    expect(text(await session.client.callTool({ name: 'add_tool', arguments: {} }))).toBe(`added extra_${++tools}`);
    await session.client.callTool({ name: 'update_note', arguments: { id, body: 'changed while no stream was open' } });
    // In the broadcast log before the stream is back (the bus records it just after the answer).
    await settle(300);
    expect(session.listChanges()).toBe(live ? 1 : 0);
    expect(session.updates).toEqual([]);
    release();
    session.gate.hold = undefined;

    await waitFor('the missed list change and update arrive', () => session.listChanges() >= (live ? 2 : 1) && session.updates.length >= 1);
    const resumed = session.lb.log.find((routed) => routed.method === 'GET' && routed.to === B && routed.status === 200);
    expect(resumed).toBeDefined();
    if (resumesWithId) expect(resumed!.lastEventId).toMatch(/^g_\d+-\d+_\d+-\d+$/);
    else expect(resumed!.lastEventId).toBeUndefined();
    expect(session.gets.every((get) => get.version === revision)).toBe(true);

    // Sentinels after them: a second copy of anything replayed would have come before these.
    expect(text(await session.client.callTool({ name: 'add_tool', arguments: {} }))).toBe(`added extra_${++tools}`);
    await session.client.callTool({ name: 'update_note', arguments: { id, body: 'sentinel' } });
    await waitFor('the sentinels arrive', () => session.listChanges() === tools && session.updates.length === 2);
    await settle(300);
    expect({ listChanges: session.listChanges(), updates: session.updates }).toEqual({ listChanges: tools, updates: [uri, uri] });
  });
});
