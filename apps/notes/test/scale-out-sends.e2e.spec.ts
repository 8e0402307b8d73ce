import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { HttpServerProcess } from '@mcpkit/testing';
import { startRedisServer, type RedisServer } from '../../../packages/redis/test/support/redis-server';
import { Balancer } from './support/balancer';
import { originOf, startInstance, stopDeployment } from './support/notes-instances';
import { waitFor } from './support/waiting';

// #16's fault case over real processes: 500 server→client messages raised concurrently by two
// child processes of apps/notes for one session, read on one GET stream. The messages are task
// statuses (sent outside any request, so each goes into the session's shared GET stream log,
// whichever instance runs the task): 20 export_notes tasks over 24 notes, 10 running on A and
// 10 on B at once, each telling 24 "working" steps and its completion. The stream is held by A.
// The router-level version (packages/redis/test/redis-only.int.spec.ts) sends through the
// router directly; this one goes through the HTTP endpoint, the task runner and the SDK client.

const TASKS = 20;
const NOTES = 24;
const A = 0;
const B = 1;

let dir: string;
let redis: RedisServer;
let instances: HttpServerProcess[] = [];
let client: Client | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcpkit-scale-out-sends-'));
  redis = await startRedisServer();
  const deployment = {
    redisUrl: redis.url,
    database: join(dir, 'notes.db'),
    secret: 'scale-out-sends-request-state-secret-0123456789',
    prefix: 'notes-sends:',
  };
  instances = await Promise.all(['notes-A', 'notes-B'].map((name) => startInstance(deployment, name)));
}, 30_000);

afterAll(async () => {
  await client?.close();
  await stopDeployment(instances, redis, dir);
});

it('keeps 500 messages sent concurrently to one session from two instances strictly increasing on its GET stream, none lost, none repeated', async () => {
  let calls = 0;
  const lb = new Balancer(instances.map(originOf));
  // The GET stream on A; the tool calls alternate: A, B, A, B …
  lb.choose = ({ method, rpc }) => (method === 'GET' ? A : rpc === 'tools/call' ? calls++ % 2 : undefined);
  // Which instance made (and runs) each task: the one that answered its tools/call.
  const ranOn = new Map<string, number>();
  const fetchAndNote = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const routed = lb.log.length; // lb.fetch logs the request before its first await
    const response = await lb.fetch(input, init);
    if (lb.log[routed].rpc === 'tools/call' && response.headers.get('content-type')?.includes('application/json')) {
      const taskId = ((await response.clone().json()) as { result?: { task?: { taskId?: string } } }).result?.task?.taskId;
      if (taskId !== undefined) ranOn.set(taskId, lb.log[routed].to);
    }
    return response;
  };
  const notifications: Array<{ method: string; params?: Record<string, unknown> }> = [];
  client = new Client({ name: 'burst', version: '1.0.0' });
  client.fallbackNotificationHandler = async (notification) => void notifications.push(notification);
  await client.connect(new StreamableHTTPClientTransport(new URL('http://balancer.invalid/mcp'), { fetch: fetchAndNote }));
  await waitFor('the GET stream opens on A', () => lb.log.some((routed) => routed.method === 'GET' && routed.status === 200), 10_000);
  for (let n = 1; n <= NOTES; n += 1) await client.callTool({ name: 'create_note', arguments: { title: `n${n}`, body: 'burst', tags: ['burst'] } });

  const tasks = await Promise.all(
    Array.from({ length: TASKS }, () =>
      client!.request({ method: 'tools/call', params: { name: 'export_notes', arguments: { tag: 'burst' }, task: { ttl: 60_000 } } }, CreateTaskResultSchema),
    ),
  );
  const statuses = () => notifications.filter((n) => n.method === 'notifications/tasks/status');
  // The bound is how long the test waits, not a speed it asserts.
  await waitFor('every task tells its completion', () => statuses().filter((n) => n.params?.status === 'completed').length >= TASKS, 45_000);
  // Anything late or repeated would come within a moment of the last completion.
  await new Promise((resolve) => setTimeout(resolve, 300));

  expect(tasks.map(({ task }) => ranOn.get(task.taskId)).sort()).toEqual([...Array(TASKS / 2).fill(A), ...Array(TASKS / 2).fill(B)]);
  expect(statuses()).toHaveLength(TASKS * (NOTES + 1));
  for (const { task } of tasks) {
    const told = statuses()
      .filter((n) => n.params?.taskId === task.taskId)
      .map((n) => (n.params?.status === 'completed' ? 'completed' : String(n.params?.statusMessage)));
    expect(told).toEqual([...Array.from({ length: NOTES }, (_, i) => `${i + 1} of ${NOTES} notes`), 'completed']);
  }
  // The ids the stream carried: one per message, strictly increasing in the GET log (Redis stream
  // ids, <ms>-<n>; the broadcast position that follows them is not what these messages move).
  const ids = lb.getEvents
    .filter((event) => event.data.includes('notifications/tasks/status'))
    .map((event) =>
      /^g_(\d+)-(\d+)(?:_\d+-\d+)?$/
        .exec(event.id ?? '')!
        .slice(1)
        .map(BigInt),
    );
  expect(ids).toHaveLength(TASKS * (NOTES + 1));
  for (let i = 1; i < ids.length; i += 1) {
    const [previousMs, previousSeq] = ids[i - 1];
    const [ms, seq] = ids[i];
    expect(ms > previousMs || (ms === previousMs && seq > previousSeq)).toBe(true);
  }
  // The two instances' messages overlap on the stream: each instance wrote while the other was
  // writing (A…B…A or B…A…B). How finely they interleave is up to the scheduler (Node 24 once
  // gave fewer than TASKS switches), so only the overlap is asserted.
  const writers = statuses().map((n) => ranOn.get(String(n.params?.taskId)));
  const switches = writers.filter((writer, i) => i > 0 && writer !== writers[i - 1]).length;
  expect(switches).toBeGreaterThanOrEqual(2);
}, 90_000);
