// pnpm bench:scale (#31 §4): what mcpkit costs at scale beside the official SDK (its documented
// session pattern: one McpServer and one StreamableHTTPServerTransport per session) and the raw
// server: memory per idle session, one resource update fanned out to every subscriber (GET
// streams, 2026-07-28 listens), tools/list with 5 000 tools, sessions on Redis against memory.
// --smoke: tiny counts, every answer verified, goals not judged, nothing written (CI). Without it
// (a few minutes; needs redis-server and an open-file limit above 11 000, which the root script
// raises to the hard limit) it writes docs/benchmarks-scale.json and the scale section of
// docs/benchmarks.md. --only memory | fan-out | tools-list | redis runs one figure alone.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { tokenCounter } from '@mcpkit/cli';
import { spawnServer, StdioRpc, stopAllServers, track } from './clients';
import { freePort, waitForPort } from './proc';
import { median, round, scaleOutFigures } from './run';
import { LeanSessions, Streams, inParallel } from './scale/lean-client';
import { renderScale, type FanOut, type ListFigure, type MemoryPerSession, type ScaleResults, type ScaleServer } from './scale/scale-report';
import type { ControlRequest, MemoryFigure } from './servers/scale-control';

const smoke = process.argv.includes('--smoke');
// --only memory | fan-out | tools-list | redis: one figure alone (written nowhere).
const ONLY = process.argv.indexOf('--only') > 0 ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const SECTIONS = ['memory', 'fan-out', 'tools-list', 'redis'];
if (ONLY !== undefined && !SECTIONS.includes(ONLY)) throw new Error(`--only takes ${SECTIONS.join(', ')}, not "${ONLY}"`);
const runs = (section: string) => ONLY === undefined || ONLY === section;
// Smoke: one count, every figure still verified (each server start costs ~0.5 s of a CI minute).
const COUNTS = smoke ? [50] : [1_000, 10_000];
const TOOLS = smoke ? 200 : 5_000;
const LIST_CALLS = smoke ? 3 : 40;
const FAN_OUT_ROUNDS = smoke ? 1 : 3;
const REDIS_ROUNDS = smoke ? 1 : 3;
const URI = 'bench://counter';
const DELIVERY_TIMEOUT_MS = 60_000;

const SCALE_SERVERS: Record<ScaleServer, string> = {
  mcpkit: join(__dirname, 'servers', 'mcpkit-scale-server.js'),
  sdk: join(__dirname, 'servers', 'sdk-scale-server.js'),
  raw: join(__dirname, 'servers', 'raw-server.js'),
};
const LIST_SERVERS: Record<ScaleServer, string> = {
  mcpkit: require.resolve('@mcpkit/app-testbed/dist/main.js'),
  sdk: join(__dirname, 'servers', 'sdk-server.js'),
  raw: join(__dirname, 'servers', 'raw-server.js'),
};
// The testbed lists two tools the others do not have (`shapes`, `limited`).
const BASE_TOOLS: Record<ScaleServer, number> = { mcpkit: 7, sdk: 5, raw: 5 };

interface ScaleTarget {
  url: string;
  control<T>(kind: ControlRequest['kind']): Promise<T>;
  stop(): Promise<void>;
}

/** A scale server with --expose-gc and an IPC channel, on a free loopback port. */
async function startScale(server: ScaleServer): Promise<ScaleTarget> {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', MCP_HTTP_MODE: 'stateful' };
  const child = spawn(process.execPath, ['--expose-gc', SCALE_SERVERS[server], 'http'], { env, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  track(child);
  await waitForPort(port);
  let next = 0;
  const waiting = new Map<number, (value: unknown) => void>();
  child.on('message', (answer: { id: number; value: unknown }) => waiting.get(answer.id)?.(answer.value));
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    control: <T>(kind: ControlRequest['kind']) =>
      new Promise<T>((resolve) => {
        const id = next++;
        waiting.set(id, (value) => (waiting.delete(id), resolve(value as T)));
        child.send({ id, kind } satisfies ControlRequest);
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
        child.once('exit', () => (clearTimeout(timer), resolve()));
        child.kill('SIGTERM');
      }),
  };
}

/** Heap and RSS growth per session when `count` idle sessions are open (after a warm-up of 20). */
async function memoryPerSession(server: ScaleServer, count: number): Promise<MemoryPerSession> {
  const target = await startScale(server);
  try {
    const sessions = new LeanSessions(target.url);
    await sessions.openMany(20);
    const before = await target.control<MemoryFigure>('memory');
    const ids = await sessions.openMany(count);
    // The pool's sockets close: what stays is the sessions alone.
    sessions.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const after = await target.control<MemoryFigure>('memory');
    // Still there, the first and the last: none was ended to make room.
    const check = new LeanSessions(target.url);
    await check.echo(ids[0], 'first');
    await check.echo(ids[count - 1], 'last');
    check.close();
    return { heapBytes: Math.round((after.heapUsed - before.heapUsed) / count), rssBytes: Math.round((after.rss - before.rss) / count) };
  } finally {
    await target.stop();
  }
}

/** `count` subscribers on GET streams (handshake era) or listens (2026-07-28), then timed updates. */
async function fanOut(server: ScaleServer, kind: 'GET' | 'listen', count: number): Promise<FanOut> {
  const target = await startScale(server);
  const streams = new Streams(target.url, URI);
  try {
    if (kind === 'GET') {
      const sessions = new LeanSessions(target.url);
      const ids = await sessions.openMany(count);
      await inParallel(count, 16, (i) => sessions.subscribe(ids[i], URI));
      sessions.close();
      await inParallel(count, 64, (i) => streams.get(ids[i]));
    } else {
      await inParallel(count, 64, (i) => streams.listen(i + 1));
    }
    // One untimed update first: the first delivery on each stream pays for warming up.
    const figures: FanOut[] = [];
    for (let update = 1; update <= FAN_OUT_ROUNDS + 1; update++) {
      const cpuBefore = await target.control<number>('cpu');
      const begin = performance.now();
      const delivered = streams.delivered(update, DELIVERY_TIMEOUT_MS);
      await target.control('update');
      const last = await delivered;
      const cpuAfter = await target.control<number>('cpu');
      if (update > 1) figures.push({ ms: round(last - begin), cpuMs: round((cpuAfter - cpuBefore) / 1000) });
    }
    return { ms: median(figures.map((f) => f.ms)), cpuMs: median(figures.map((f) => f.cpuMs)) };
  } finally {
    streams.close();
    await target.stop();
  }
}

/** tools/list of `TOOLS` synthetic tools (and each server's own) over stdio: latency, tokens, bytes. */
async function toolsList(server: ScaleServer, count: (text: string) => number): Promise<ListFigure> {
  const child = spawnServer([LIST_SERVERS[server], 'stdio'], { TOOLS: String(TOOLS) });
  const client = new StdioRpc(child);
  try {
    await client.call('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench-scale', version: '1' } });
    client.notify('notifications/initialized');
    const times: number[] = [];
    let text = '';
    for (let i = 0; i < LIST_CALLS + 2; i++) {
      const t0 = performance.now();
      const answer = await client.call('tools/list');
      const ms = performance.now() - t0;
      const tools = (answer.result as { tools?: unknown[]; nextCursor?: unknown } | undefined)?.tools;
      if (tools?.length !== TOOLS + BASE_TOOLS[server]) throw new Error(`${server}: tools/list listed ${tools?.length}, not ${TOOLS + BASE_TOOLS[server]}`);
      // The first two warm up.
      if (i >= 2) times.push(ms);
      text = JSON.stringify(answer.result);
    }
    times.sort((a, b) => a - b);
    return {
      tools: TOOLS + BASE_TOOLS[server],
      p50Ms: round(times[Math.floor(times.length * 0.5)]),
      p99Ms: round(times[Math.min(times.length - 1, Math.floor(times.length * 0.99))]),
      tokens: count(text),
      bytes: Buffer.byteLength(text),
    };
  } finally {
    await new Promise<void>((resolve) => (child.once('exit', () => resolve()), child.stdin!.end(), setTimeout(() => child.kill('SIGKILL'), 3_000).unref()));
  }
}

/** The open-file limit this process (and the servers it starts) runs under. */
function openFileLimit(): number {
  const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
  return line === null || line[1] === 'unlimited' ? Infinity : Number(line[1]);
}

async function main(): Promise<void> {
  // The client holds a socket per stream, and so does the server: each process needs the most
  // subscribers plus its own few hundred.
  const needed = Math.max(...COUNTS) + 1_000;
  if (openFileLimit() < needed)
    throw new Error(
      `the open-file limit is ${openFileLimit()}, below ${needed}: run under \`ulimit -n ${needed}\` (pnpm bench:scale raises it to the hard limit)`,
    );
  const started = Date.now();
  const results: ScaleResults = {
    date: new Date().toISOString(),
    node: process.version,
    smoke,
    load: { start: loadavg(), end: [] },
    memory: {},
    fanOut: {},
    toolsList: {},
    redis: {},
  };
  // Each figure is a check: its answers and deliveries verified. One that fails is reported and
  // the others still run; the last line counts them (what CI reads).
  let passed = 0;
  const failed: string[] = [];
  const check = async (name: string, figure: () => Promise<unknown>): Promise<void> => {
    try {
      console.log(`${name}: ${JSON.stringify(await figure())}`);
      passed += 1;
    } catch (error) {
      console.error(`FAILED ${name}: ${(error as Error).stack ?? String(error)}`);
      failed.push(name);
    }
  };
  for (const count of runs('memory') ? COUNTS : []) {
    for (const server of ['mcpkit', 'sdk', 'raw'] as const)
      await check(`memory, ${server}, ${count} sessions`, async () => ((results.memory[server] ??= {})[count] = await memoryPerSession(server, count)));
  }
  const kinds: Array<[string, ScaleServer, 'GET' | 'listen']> = [
    ['mcpkit, GET streams', 'mcpkit', 'GET'],
    ['mcpkit, 2026-07-28 listens', 'mcpkit', 'listen'],
    ['official SDK, GET streams', 'sdk', 'GET'],
  ];
  for (const count of runs('fan-out') ? COUNTS : []) {
    for (const [label, server, kind] of kinds)
      await check(`fan-out, ${label}, ${count} subscribers`, async () => ((results.fanOut[label] ??= {})[count] = await fanOut(server, kind, count)));
  }
  const count = tokenCounter('o200k_base');
  for (const server of runs('tools-list') ? (['mcpkit', 'sdk', 'raw'] as const) : [])
    await check(`tools/list, ${server}, ${TOOLS} tools`, async () => (results.toolsList[server] = await toolsList(server, count)));
  if (runs('redis')) await check('echo, sessions in memory and on Redis', async () => (results.redis = await scaleOutFigures(REDIS_ROUNDS)));
  results.load.end = loadavg();
  results.seconds = Math.round((Date.now() - started) / 1000);

  if (!smoke && ONLY === undefined && failed.length === 0) {
    const docs = join(__dirname, '..', '..', '..', 'docs');
    writeFileSync(join(docs, 'benchmarks-scale.json'), `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(join(docs, 'benchmarks.md'), withScaleSection(readFileSync(join(docs, 'benchmarks.md'), 'utf8'), results));
  }
  console.log(renderScale(results));
  console.log(`bench:scale ${smoke ? 'smoke ' : ''}done in ${results.seconds} s${failed.length > 0 ? `; failed: ${failed.join('; ')}` : ''}`);
  console.log(`${passed} passed, ${failed.length} failed`);
  if (failed.length > 0) process.exitCode = 1;
}

const BEGIN = '<!-- scale:begin (generated from benchmarks-scale.json by pnpm bench:scale; do not edit) -->';
const END = '<!-- scale:end -->';

/** The page with its scale section replaced by the tables of `results`. */
export function withScaleSection(page: string, results: ScaleResults): string {
  const start = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (start === -1 || end === -1) throw new Error('docs/benchmarks.md lacks the scale:begin / scale:end markers');
  return `${page.slice(0, start + BEGIN.length)}\n${renderScale(results)}\n${page.slice(end)}`;
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`bench:scale failed: ${(error as Error).stack ?? String(error)}`);
    stopAllServers();
    process.exit(1);
  });
}
