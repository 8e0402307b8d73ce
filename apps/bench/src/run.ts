// pnpm bench: mcpkit's testbed against the official SDK and a raw JSON-RPC server.
// Flags: --smoke (a few verified calls, no figures judged), --out <file.json>, --docs (rewrite
// docs/benchmarks.md), --only startup (cold start and memory alone, on both Nodes: ~1 minute),
// --only logging (echo at 16 in flight: raw, mcpkit at warn, at info, in its default
// configuration and with OpenTelemetry on, interleaved, stdio and HTTP: ~3 minutes),
// --only auth (echo at 16 in flight: plain, behind @RequireScopes and a guard, and JWT-verified
// on HTTP, beside the testbed's echo, interleaved: ~3 minutes), --only scale-out (HTTP with a
// session, its sessions in memory and on Redis: ~2 minutes; needs redis-server), --only
// http-clients (HTTP echo at 16 in flight in one session, from Node's http client and from an
// undici pool, raw and mcpkit at warn and in its default configuration, interleaved: ~4 minutes),
// --only compose (#30: echo at 16 in flight direct, mounted, and proxied over stdio, the proxied
// row's CPU that of the gateway plus the remote it spawned, interleaved, stdio and HTTP: ~3 minutes).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpRpc, spawnServer, stopAllServers, StdioRpc, UndiciRpc, type Message, type RpcClient } from './clients';
import { BAD_VALIDATE, callFor, type Workload } from './payloads';
import { cpuMicros, freePort, mainThreadCpuMicros, processTree, rssMb, waitForPort } from './proc';
import { otlpSink } from './otlp-sink';
import { renderMarkdown } from './report';
import { startBenchRedis } from './redis-server';
import { withTables } from './render';

export type ServerName = 'mcpkit' | 'sdk' | 'sdk2' | 'raw' | 'mcpkit-auth' | 'mcpkit-plain' | 'mcpkit-gateway' | 'mcpkit-plugin';
export type Transport = 'stdio' | 'http' | 'http-stateless' | 'stdio-2026' | 'http-2026';

const SCRIPTS: Record<ServerName, string> = {
  mcpkit: require.resolve('@mcpkit/app-testbed/dist/main.js'),
  sdk: join(__dirname, 'servers', 'sdk-server.js'),
  sdk2: join(__dirname, 'servers', 'sdk2-server.js'),
  raw: join(__dirname, 'servers', 'raw-server.js'),
  'mcpkit-auth': join(__dirname, 'servers', 'mcpkit-auth-server.js'),
  'mcpkit-plain': join(__dirname, 'servers', 'mcpkit-plain-server.js'),
  'mcpkit-plugin': join(__dirname, 'servers', 'mcpkit-plugin-server.js'),
  'mcpkit-gateway': join(__dirname, 'servers', 'mcpkit-gateway-server.js'),
};

const smoke = process.argv.includes('--smoke');
const flag = (name: string) => (process.argv.indexOf(name) > 0 ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const OUT = flag('--out');
const ONLY = flag('--only');
const ONLY_MODES = ['startup', 'logging', 'auth', 'scale-out', 'http-clients', 'compose'];
if (require.main === module && ONLY !== undefined && !ONLY_MODES.includes(ONLY))
  throw new Error(`--only takes ${ONLY_MODES.map((mode) => `"${mode}"`).join(', ')}, not "${ONLY}"`);
const SERVERS: ServerName[] = ['mcpkit', 'sdk', 'raw'];
const TRANSPORTS: Transport[] = ['stdio', 'http', 'http-stateless', 'stdio-2026', 'http-2026'];
// The 2026-07-28 revision: the v1 SDK does not speak it, the v2 SDK does (its HTTP handler serves
// the handshake era only statelessly, so the handshake-era rows keep v1, the SDK most servers run).
const MODERN: ReadonlySet<Transport> = new Set(['stdio-2026', 'http-2026']);
const serversFor = (transport: Transport): ServerName[] => (MODERN.has(transport) ? ['mcpkit', 'sdk2', 'raw'] : SERVERS);
// Cold start, memory and the long list: every server, both SDKs (over stdio, handshake era).
const FIGURE_SERVERS: ServerName[] = ['mcpkit', 'sdk', 'sdk2', 'raw'];
// Cold start only: the testbed without the start-up opt-in (`@mcpkit/core/compile-cache`).
const COLD_START_SERVERS: ServerName[] = [...FIGURE_SERVERS, 'mcpkit-plain'];
const WORKLOADS: Workload[] = ['echo', 'add', 'validate'];
const CONCURRENCY = smoke ? [1, 16] : [1, 16, 64];
// CPU time comes in 10 ms ticks: enough calls per figure that even the raw server spends
// hundreds of ticks (stdio is ~20× faster per call than HTTP).
const CALLS: Record<Transport, number> = smoke
  ? { stdio: 40, http: 40, 'http-stateless': 40, 'stdio-2026': 40, 'http-2026': 40 }
  : { stdio: 40_000, http: 6_000, 'http-stateless': 6_000, 'stdio-2026': 40_000, 'http-2026': 6_000 };
const ROUNDS = smoke ? 1 : 2;
// Cold starts per server and Node: a start is ~0.1 s, and on this noisy machine 7 left medians ±20% apart between runs.
const COLD_START_SAMPLES = 15;

interface Started {
  pid: number;
  /** The CPU of a figure counts this process's descendants too (a gateway's remote). */
  tree?: boolean;
  client: RpcClient;
  stop: () => Promise<void>;
}

/** Node 24 LTS (scripts/node24.js installs it from the npm registry once): the Node most users run. */
function node24(): { bin: string; version: string } {
  const script = join(__dirname, '..', '..', '..', 'scripts', 'node24.js');
  const found = spawnSync(process.execPath, [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (found.status !== 0) throw new Error('scripts/node24.js could not install Node 24');
  const bin = join(found.stdout.trim(), 'node');
  return { bin, version: spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim() };
}

/** The HTTP client of a figure: Node's own (an Agent, one socket per request in flight) or an undici pool. */
export type HttpClientName = 'node:http' | 'undici';

async function start(
  server: ServerName,
  transport: Transport,
  env: NodeJS.ProcessEnv = {},
  node = process.execPath,
  httpClient: HttpClientName = 'node:http',
): Promise<Started> {
  const modern = MODERN.has(transport);
  if (transport === 'stdio' || transport === 'stdio-2026') {
    const child = spawnServer([SCRIPTS[server], 'stdio'], env, node);
    const client = new StdioRpc(child, modern);
    if (!modern) {
      await client.call('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
      client.notify('notifications/initialized');
    }
    return {
      pid: child.pid!,
      client,
      stop: () => new Promise((resolve) => (child.once('exit', () => resolve()), child.stdin!.end(), setTimeout(() => child.kill('SIGKILL'), 3_000).unref())),
    };
  }
  const port = await freePort();
  // A modern request needs no session, so the server runs in its default (session) mode.
  const child = spawnServer([SCRIPTS[server], 'http'], {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    MCP_HTTP_MODE: transport === 'http-stateless' ? 'stateless' : 'stateful',
  });
  await waitForPort(port);
  // The auth rows' server wants a bearer token: any for a fixed caller, its own JWT for jwtVerifier.
  const token = env.BENCH_AUTH === 'jwt' ? await benchToken(env.AS_PORT!) : env.BENCH_AUTH === 'fixed' ? 'fixed' : undefined;
  const url = `http://127.0.0.1:${port}/mcp`;
  const client =
    httpClient === 'undici'
      ? new UndiciRpc(url, HTTP_CLIENT_CONNECTIONS)
      : new HttpRpc(url, modern, token === undefined ? {} : { authorization: `Bearer ${token}` });
  if (!modern) {
    await client.call('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
    await client.notify('notifications/initialized');
  }
  return {
    pid: child.pid!,
    client,
    stop: async () => {
      await client.close();
      await new Promise<void>(
        (resolve) => (child.once('exit', () => resolve()), child.kill('SIGTERM'), setTimeout(() => child.kill('SIGKILL'), 3_000).unref()),
      );
    },
  };
}

/** A token from the stub authorization server of the auth rows' server (its port answers once it listens). */
async function benchToken(asPort: string): Promise<string> {
  await waitForPort(Number(asPort));
  const response = await fetch(`http://127.0.0.1:${asPort}/bench-token`);
  return ((await response.json()) as { token: string }).token;
}

function textOf(answer: Message): string | undefined {
  const result = answer.result as { content?: Array<{ text?: string }>; isError?: boolean } | undefined;
  return result?.isError ? undefined : result?.content?.[0]?.text;
}

export interface Measurement {
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  cpuUsPerCall: number;
  /** The main thread's share of `cpuUsPerCall` (the rest: V8's and libuv's threads). */
  mainThreadCpuUsPerCall?: number;
}

/** `count` verified calls with `concurrency` in flight. */
async function measure(started: Started, workload: Workload, concurrency: number, count: number): Promise<Measurement> {
  const latencies: number[] = [];
  let next = 0;
  // Found once, before the calls: a process that ended during them would leave no /proc entry to read.
  const pids = started.tree ? processTree(started.pid) : [started.pid];
  const sum = (read: (pid: number) => number) => pids.reduce((total, pid) => total + read(pid), 0);
  const cpuBefore = sum(cpuMicros);
  const mainBefore = sum(mainThreadCpuMicros);
  const begin = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const { args, expected } = callFor(workload, i);
        const t0 = performance.now();
        const answer = await started.client.call('tools/call', { name: workload, arguments: args });
        latencies.push(performance.now() - t0);
        if (textOf(answer) !== expected) throw new Error(`wrong answer for ${workload} #${i}: ${JSON.stringify(answer).slice(0, 300)}`);
      }
    }),
  );
  const elapsed = (performance.now() - begin) / 1000;
  const cpu = sum(cpuMicros) - cpuBefore;
  const main = sum(mainThreadCpuMicros) - mainBefore;
  latencies.sort((a, b) => a - b);
  return {
    callsPerSecond: Math.round(count / elapsed),
    p50Ms: round(latencies[Math.floor(latencies.length * 0.5)]),
    p99Ms: round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))]),
    cpuUsPerCall: round(cpu / count),
    mainThreadCpuUsPerCall: round(main / count),
  };
}

export function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** Every server must reject all ten bad `validate` inputs before its handler. */
async function checkRejections(started: Started, label: string): Promise<void> {
  for (const [name, args] of BAD_VALIDATE) {
    const answer = await started.client.call('tools/call', { name: 'validate', arguments: args });
    const result = answer.result as { isError?: boolean } | undefined;
    if (!(result?.isError === true || answer.error !== undefined)) throw new Error(`${label} accepted the bad validate input "${name}"`);
  }
}

async function coldStart(server: ServerName, node: string): Promise<number> {
  const t0 = performance.now();
  const started = await start(server, 'stdio', {}, node);
  const tools = await started.client.call('tools/list');
  const ms = performance.now() - t0;
  if (!Array.isArray((tools.result as { tools?: unknown[] }).tools)) throw new Error(`${server}: no tools/list answer`);
  await started.stop();
  return round(ms);
}

// Of an even count, the mean of the middle two: of two rounds, the upper one alone would let one
// disturbed round set the figure.
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : round((sorted[mid - 1] + sorted[mid]) / 2);
}

/** Rejections, then calls per second, latency and CPU per call of every server and transport. */
async function callFigures(results: Record<string, unknown>): Promise<void> {
  const throughput: Record<string, Measurement[]> = {};
  // Rejections first: correctness before speed.
  for (const transport of ['stdio', 'http', 'stdio-2026', 'http-2026'] as Transport[]) {
    for (const server of serversFor(transport)) {
      const target = await start(server, transport);
      await checkRejections(target, `${server}/${transport}`);
      await target.stop();
    }
  }
  console.log('every server rejects the ten bad validate inputs (stdio and HTTP, and on 2026-07-28 where it speaks it)');

  // Interleaved: A B C, A B C … so drift on a noisy machine hits everyone alike.
  for (let round = 0; round < ROUNDS; round++) {
    for (const transport of TRANSPORTS) {
      for (const server of serversFor(transport)) {
        const target = await start(server, transport);
        // Untimed calls first, so no figure pays for the JIT warming up (the first one did).
        if (!smoke) for (const workload of WORKLOADS) await measure(target, workload, 16, CALLS[transport] / 10);
        for (const workload of WORKLOADS) {
          for (const concurrency of CONCURRENCY) {
            const key = `${server}|${transport}|${workload}|${concurrency}`;
            (throughput[key] ??= []).push(await measure(target, workload, concurrency, CALLS[transport]));
          }
        }
        await target.stop();
      }
    }
  }
  results.throughput = medians(throughput);
  results.logging = await loggingFigures(ROUNDS + 1);
  results.auth = await authFigures(ROUNDS + 1);
  results.scaleOut = await scaleOutFigures(ROUNDS + 1);
  results.httpClients = await httpClientFigures(HTTP_CLIENT_ROUNDS);
  results.compose = await composeFigures(COMPOSE_ROUNDS);
}

/**
 * Untimed `echo` calls before a figure of the one-ratio tables (logging, auth, scale-out, HTTP
 * clients, compose): a tenth of the figure's calls, and at least `WARM_UP_CALLS` of its transport.
 * A tenth alone left the JIT at work: with 800 calls first, `--trace-opt` showed V8 still
 * optimizing 126 functions (direct HTTP echo) and 161 (proxied) during the 8 000 measured calls,
 * its compiler threads busy, and none after 20 000 (2026-12-05).
 */
const WARM_UP_CALLS: Record<'stdio' | 'http', number> = { stdio: 40_000, http: 20_000 };

async function warmUp(target: Started, transport: 'stdio' | 'http', calls: number): Promise<void> {
  if (!smoke) await measure(target, 'echo', 16, Math.max(calls / 10, WARM_UP_CALLS[transport]));
}

// The cost of mcpkit's one info line per request (the matrix runs at LOG_LEVEL=warn), and the
// default configuration a user gets: no LOG_LEVEL at all. Interleaved with raw and mcpkit at warn,
// with more calls than the matrix (HTTP figures of 6 000 calls still carry JIT warm-up and 10 ms
// CPU ticks), so these ratios come from one stretch of time on a noisy machine.
const OTEL_ROW = 'mcpkit+otel';
const LOGGING_ROWS: Array<[string, ServerName, NodeJS.ProcessEnv]> = [
  ['raw', 'raw', {}],
  ['mcpkit', 'mcpkit', {}],
  ['mcpkit+info-log', 'mcpkit', { LOG_LEVEL: 'info' }],
  ['mcpkit (default config)', 'mcpkit', { LOG_LEVEL: undefined }],
  // OpenTelemetry on (#15): the Node SDK and @mcpkit/otel, exporting OTLP to a sink that drops it.
  [OTEL_ROW, 'mcpkit', { OTEL_SERVICE_NAME: 'bench', OTEL_LOGS_EXPORTER: 'none' }],
];

const LOGGING_CALLS: Record<'stdio' | 'http', number> = smoke ? { stdio: 40, http: 40 } : { stdio: 150_000, http: 20_000 };

async function loggingFigures(rounds: number): Promise<Record<string, Record<string, Measurement>>> {
  const runs: Record<string, Measurement[]> = {};
  for (let round = 0; round < rounds; round++) {
    for (const transport of ['stdio', 'http'] as const) {
      for (const [row, server, env] of LOGGING_ROWS) {
        const target = await start(server, transport, row === OTEL_ROW ? { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: await otlpSink() } : env);
        await warmUp(target, transport, LOGGING_CALLS[transport]);
        (runs[`${row}|${transport}|echo|16`] ??= []).push(await measure(target, 'echo', 16, LOGGING_CALLS[transport]));
        await target.stop();
      }
    }
  }
  const figures = medians(runs);
  const byTransport: Record<string, Record<string, Measurement>> = {};
  for (const [key, figure] of Object.entries(figures)) (byTransport[key.split('|')[1]] ??= {})[key.split('|')[0]] = figure;
  return byTransport;
}

// The cost of #14's pipeline and resource server on one call: the same echo with no pipeline,
// behind @RequireScopes and a guard (a fixed AuthInfo: stdio's auth hook, or on HTTP a verifier
// that names it), and with every HTTP request's JWT verified (ES256, jwtVerifier), beside the
// testbed's echo (an app without guards or auth), interleaved as the logging rows are.
const AUTH_ROWS: Array<[string, ServerName, NodeJS.ProcessEnv, ReadonlyArray<'stdio' | 'http'>]> = [
  ['mcpkit (testbed)', 'mcpkit', {}, ['stdio', 'http']],
  ['echo, no pipeline', 'mcpkit-auth', {}, ['stdio', 'http']],
  // HTTP: a resource server whose verifier names a fixed caller, without and with the pipeline.
  ['echo, resource server (fixed AuthInfo)', 'mcpkit-auth', { BENCH_AUTH: 'fixed' }, ['http']],
  ['echo + @RequireScopes + guard', 'mcpkit-auth', { BENCH_GUARDED: '1', BENCH_AUTH: 'fixed' }, ['stdio', 'http']],
  ['echo, JWT-verified', 'mcpkit-auth', { BENCH_AUTH: 'jwt' }, ['http']],
  ['echo + @RequireScopes + guard, JWT-verified', 'mcpkit-auth', { BENCH_GUARDED: '1', BENCH_AUTH: 'jwt' }, ['http']],
];

async function authFigures(rounds: number): Promise<Record<string, Record<string, Measurement>>> {
  const runs: Record<string, Measurement[]> = {};
  for (let round = 0; round < rounds; round++) {
    for (const transport of ['stdio', 'http'] as const) {
      for (const [row, server, env, transports] of AUTH_ROWS) {
        if (!transports.includes(transport)) continue;
        const target = await start(server, transport, env.BENCH_AUTH === 'jwt' ? { ...env, AS_PORT: String(await freePort()) } : env);
        await warmUp(target, transport, LOGGING_CALLS[transport]);
        (runs[`${row}|${transport}|echo|16`] ??= []).push(await measure(target, 'echo', 16, LOGGING_CALLS[transport]));
        await target.stop();
      }
    }
  }
  const figures = medians(runs);
  const byTransport: Record<string, Record<string, Measurement>> = {};
  for (const [key, figure] of Object.entries(figures)) (byTransport[key.split('|')[1]] ??= {})[key.split('|')[0]] = figure;
  return byTransport;
}

// Composition (#30): the auth rows' plain echo called directly, mounted into a gateway
// (createApp({ imports }), renamed back to `echo`), and proxied: a gateway whose `echo` is
// @mcpkit/proxy onto that same server, spawned over stdio, its CPU the gateway's plus the
// remote's. Interleaved, so the ratios (proxied ≤ 1.5× direct; mounted = direct) come from one
// stretch of time on a noisy machine.
const COMPOSE_ROWS: Array<[string, ServerName, NodeJS.ProcessEnv]> = [
  ['echo, direct', 'mcpkit-auth', {}],
  ['echo, mounted', 'mcpkit-auth', { BENCH_MOUNTED: '1' }],
  ['echo, proxied (gateway + remote)', 'mcpkit-gateway', {}],
];
// Five rounds: the proxied row runs three processes on two cores, and one slow minute of the
// machine moved a three-round median from ~1.2× to 1.6× direct (2026-12-05).
const COMPOSE_ROUNDS = smoke ? 1 : 5;
const COMPOSE_CALLS: Record<'stdio' | 'http', number> = smoke ? { stdio: 40, http: 40 } : { stdio: 40_000, http: 8_000 };

async function composeFigures(rounds: number): Promise<Record<string, Record<string, Measurement>>> {
  const runs: Record<string, Measurement[]> = {};
  for (let pass = 0; pass < rounds; pass++) {
    for (const transport of ['stdio', 'http'] as const) {
      for (const [row, server, env] of COMPOSE_ROWS) {
        const target = { ...(await start(server, transport, env)), tree: true };
        await warmUp(target, transport, COMPOSE_CALLS[transport]);
        (runs[`${row}|${transport}`] ??= []).push(await measure(target, 'echo', 16, COMPOSE_CALLS[transport]));
        await target.stop();
      }
    }
  }
  const byTransport: Record<string, Record<string, Measurement>> = {};
  for (const [key, figure] of Object.entries(medians(runs))) (byTransport[key.split('|')[1]] ??= {})[key.split('|')[0]] = figure;
  return byTransport;
}

// The same HTTP echo from two clients (#27): Node's http client (an Agent: a socket per request
// in flight), and an undici pool of keep-alive connections (the client under Node's fetch and most
// MCP clients), both sending `Accept: application/json, text/event-stream` in one session, 16 in
// flight; raw, mcpkit (`serveHttp`) at warn and in its default configuration, and the plugin inside
// a Fastify app of its own (both configurations), interleaved, more rounds
// than the other tables (an HTTP figure on a loaded 2-core machine moves by ±20% between rounds).
const HTTP_CLIENT_CONNECTIONS = 16;
const HTTP_CLIENT_ROUNDS = smoke ? 1 : 5;
const HTTP_CLIENTS: HttpClientName[] = ['node:http', 'undici'];
const HTTP_CLIENT_ROWS: Array<[string, ServerName, NodeJS.ProcessEnv]> = [
  ['raw', 'raw', {}],
  ['mcpkit', 'mcpkit', {}],
  ['mcpkit (default config)', 'mcpkit', { LOG_LEVEL: undefined }],
  // The plugin inside a Fastify app of its own: what Fastify's request pipeline adds.
  ['mcpkit inside a Fastify app', 'mcpkit-plugin', {}],
  ['mcpkit inside a Fastify app (default config)', 'mcpkit-plugin', { LOG_LEVEL: undefined }],
];

async function httpClientFigures(rounds: number): Promise<Record<string, Record<string, Measurement>>> {
  const runs: Record<string, Measurement[]> = {};
  for (let pass = 0; pass < rounds; pass++) {
    for (const client of HTTP_CLIENTS) {
      for (const [row, server, env] of HTTP_CLIENT_ROWS) {
        const target = await start(server, 'http', env, process.execPath, client);
        await warmUp(target, 'http', LOGGING_CALLS.http);
        (runs[`${row}|${client}`] ??= []).push(await measure(target, 'echo', 16, LOGGING_CALLS.http));
        await target.stop();
      }
    }
  }
  const byClient: Record<string, Record<string, Measurement>> = {};
  for (const [key, figure] of Object.entries(medians(runs))) (byClient[key.split('|')[1]] ??= {})[key.split('|')[0]] = figure;
  return byClient;
}

// Scale-out (#16): HTTP with a session, its sessions in memory (the default) and on Redis
// (@mcpkit/redis: sessions, resumable streams and routing in a redis-server the bench starts on a
// free loopback port and stops by PID), what a handshake-era call costs when any instance may
// serve it. Interleaved rounds of `echo`; Redis's own CPU and the commands it ran count per call too.
const SCALE_OUT_ROWS: Array<[string, boolean]> = [
  ['memory stores', false],
  ['Redis stores', true],
];
const SCALE_OUT_CALLS = smoke ? 40 : 20_000;
const SCALE_OUT_CONCURRENCY = [1, 16];

export interface ScaleOutMeasurement extends Measurement {
  redisCpuUsPerCall: number;
  redisCommandsPerCall: number;
}

export async function scaleOutFigures(rounds: number): Promise<Record<string, ScaleOutMeasurement>> {
  const redis = await startBenchRedis();
  try {
    const runs: Record<string, ScaleOutMeasurement[]> = {};
    for (let pass = 0; pass < rounds; pass++) {
      for (const [row, onRedis] of SCALE_OUT_ROWS) {
        // A prefix per pass: no session of an earlier server is ever read.
        const target = await start('mcpkit', 'http', onRedis ? { REDIS_URL: redis.url, REDIS_PREFIX: `bench-${pass}:` } : {});
        await warmUp(target, 'http', SCALE_OUT_CALLS);
        for (const concurrency of SCALE_OUT_CONCURRENCY) {
          const cpuBefore = cpuMicros(redis.pid);
          const commandsBefore = await redis.commands();
          const figure = await measure(target, 'echo', concurrency, SCALE_OUT_CALLS);
          (runs[`${row}|${concurrency}`] ??= []).push({
            ...figure,
            redisCpuUsPerCall: round((cpuMicros(redis.pid) - cpuBefore) / SCALE_OUT_CALLS),
            redisCommandsPerCall: round(((await redis.commands()) - commandsBefore) / SCALE_OUT_CALLS),
          });
        }
        await target.stop();
      }
    }
    const fields = ['callsPerSecond', 'p50Ms', 'p99Ms', 'cpuUsPerCall', 'redisCpuUsPerCall', 'redisCommandsPerCall'] as const;
    return Object.fromEntries(
      Object.entries(runs).map(([key, figures]) => [
        key,
        Object.fromEntries(fields.map((field) => [field, median(figures.map((figure) => figure[field]))])) as unknown as ScaleOutMeasurement,
      ]),
    );
  } finally {
    await redis.stop();
  }
}

function medians(throughput: Record<string, Measurement[]>): Record<string, Measurement> {
  return Object.fromEntries(
    Object.entries(throughput).map(([key, runs]) => [
      key,
      {
        callsPerSecond: median(runs.map((r) => r.callsPerSecond)),
        p50Ms: median(runs.map((r) => r.p50Ms)),
        p99Ms: median(runs.map((r) => r.p99Ms)),
        cpuUsPerCall: median(runs.map((r) => r.cpuUsPerCall)),
        mainThreadCpuUsPerCall: median(runs.map((r) => r.mainThreadCpuUsPerCall ?? NaN)),
      },
    ]),
  );
}

/**
 * Cold start to the first tools/list over stdio and memory (idle, then after 20 000 calls), on
 * the machine's Node and on Node 24. Cold-start samples interleave servers and Nodes, so drift on
 * a noisy machine hits everyone alike.
 */
async function startupFigures(results: Record<string, unknown>): Promise<void> {
  const { bin, version } = node24();
  results.node24 = version;
  const nodes = [
    { node: process.execPath, cold: 'coldStartMs', memory: 'memory' },
    { node: bin, cold: 'coldStartMsNode24', memory: 'memoryNode24' },
  ];
  const samples = new Map<string, number[]>();
  // One untimed start each first: a server's first start on a machine fills the compile cache.
  for (const { node } of nodes) for (const server of COLD_START_SERVERS) await coldStart(server, node);
  for (let i = 0; i < (smoke ? 1 : COLD_START_SAMPLES); i++) {
    for (const { node } of nodes) {
      for (const server of COLD_START_SERVERS) {
        const key = `${node}|${server}`;
        samples.set(key, [...(samples.get(key) ?? []), await coldStart(server, node)]);
      }
    }
  }
  for (const { node, cold } of nodes)
    results[cold] = Object.fromEntries(COLD_START_SERVERS.map((server) => [server, median(samples.get(`${node}|${server}`)!)]));

  for (const { node, memory: field } of nodes) {
    const memory: Record<string, { idleMb: number; after20kMb: number }> = {};
    for (const server of FIGURE_SERVERS) {
      const target = await start(server, 'stdio', {}, node);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const idle = rssMb(target.pid);
      await measure(target, 'echo', 16, smoke ? 200 : 20_000);
      memory[server] = { idleMb: round(idle), after20kMb: round(rssMb(target.pid)) };
      await target.stop();
    }
    results[field] = memory;
  }
}

/** tools/list with 505 tools (mcpkit's testbed has two more: `shapes` and `limited`, which only mcpkit has to publish). */
async function longList(results: Record<string, unknown>): Promise<void> {
  const list: Record<string, number> = {};
  for (const server of FIGURE_SERVERS) {
    const target = await start(server, 'stdio', { TOOLS: '500' });
    const times: number[] = [];
    for (let i = 0; i < (smoke ? 5 : 200); i++) {
      const t0 = performance.now();
      const answer = await target.client.call('tools/list');
      times.push(performance.now() - t0);
      const expected = server === 'mcpkit' ? 507 : 505;
      if ((answer.result as { tools: unknown[] }).tools.length !== expected) throw new Error(`${server}: tools/list did not list ${expected} tools`);
    }
    list[server] = round(median(times));
    await target.stop();
  }
  results.toolsList505P50Ms = list;
}

async function main(): Promise<void> {
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    smoke,
    node: process.version,
    calls: `${CALLS.stdio} (stdio) / ${CALLS.http} (HTTP)`,
    rounds: ROUNDS,
  };
  const started = Date.now();
  if (ONLY === 'startup') {
    await startupFigures(results);
  } else if (ONLY === 'logging') {
    results.logging = await loggingFigures(smoke ? 1 : 3);
  } else if (ONLY === 'auth') {
    results.auth = await authFigures(smoke ? 1 : 3);
  } else if (ONLY === 'scale-out') {
    results.scaleOut = await scaleOutFigures(smoke ? 1 : 3);
  } else if (ONLY === 'http-clients') {
    results.httpClients = await httpClientFigures(HTTP_CLIENT_ROUNDS);
  } else if (ONLY === 'compose') {
    results.compose = await composeFigures(COMPOSE_ROUNDS);
  } else {
    await callFigures(results);
    await startupFigures(results);
    await longList(results);
  }
  results.seconds = Math.round((Date.now() - started) / 1000);

  if (OUT) writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
  if (process.argv.includes('--docs') && !ONLY) {
    const page = join(__dirname, '..', '..', '..', 'docs', 'benchmarks.md');
    writeFileSync(page, withTables(readFileSync(page, 'utf8'), results));
  }
  console.log(renderMarkdown(results));
}

// pnpm bench:scale (scale.ts) reuses the scale-out figures: only a run of this file runs the bench.
if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`bench failed: ${(error as Error).stack ?? String(error)}`);
    // The servers of the figure that failed are still running: they must not outlive the bench
    // (an HTTP one would keep this process, and CI, waiting for ever).
    stopAllServers();
    process.exit(1);
  });
}
