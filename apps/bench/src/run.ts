// pnpm bench: mcpkit's testbed against the official SDK and a raw JSON-RPC server.
// Flags: --smoke (a few verified calls, no figures judged), --out <file.json>.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpRpc, spawnServer, StdioRpc, type Message, type RpcClient } from './clients';
import { BAD_VALIDATE, callFor, type Workload } from './payloads';
import { cpuMicros, freePort, rssMb, waitForPort } from './proc';
import { renderMarkdown } from './report';
import { withTables } from './render';

export type ServerName = 'mcpkit' | 'sdk' | 'sdk2' | 'raw';
export type Transport = 'stdio' | 'http' | 'http-stateless' | 'stdio-2026' | 'http-2026';

const SCRIPTS: Record<ServerName, string> = {
  mcpkit: require.resolve('@mcpkit/app-testbed/dist/main.js'),
  sdk: join(__dirname, 'servers', 'sdk-server.js'),
  sdk2: join(__dirname, 'servers', 'sdk2-server.js'),
  raw: join(__dirname, 'servers', 'raw-server.js'),
};

const smoke = process.argv.includes('--smoke');
const outIndex = process.argv.indexOf('--out');
const OUT = outIndex > 0 ? process.argv[outIndex + 1] : undefined;
const SERVERS: ServerName[] = ['mcpkit', 'sdk', 'raw'];
const TRANSPORTS: Transport[] = ['stdio', 'http', 'http-stateless', 'stdio-2026', 'http-2026'];
// The 2026-07-28 revision: the v1 SDK does not speak it, the v2 SDK does (its HTTP handler serves
// the handshake era only statelessly, so the handshake-era rows keep v1, the SDK most servers run).
const MODERN: ReadonlySet<Transport> = new Set(['stdio-2026', 'http-2026']);
const serversFor = (transport: Transport): ServerName[] => (MODERN.has(transport) ? ['mcpkit', 'sdk2', 'raw'] : SERVERS);
// Cold start, memory and the long list: every server, both SDKs (over stdio, handshake era).
const FIGURE_SERVERS: ServerName[] = ['mcpkit', 'sdk', 'sdk2', 'raw'];
const WORKLOADS: Workload[] = ['echo', 'add', 'validate'];
const CONCURRENCY = smoke ? [1, 16] : [1, 16, 64];
// CPU time comes in 10 ms ticks: enough calls per figure that even the raw server spends
// hundreds of ticks (stdio is ~20× faster per call than HTTP).
const CALLS: Record<Transport, number> = smoke
  ? { stdio: 40, http: 40, 'http-stateless': 40, 'stdio-2026': 40, 'http-2026': 40 }
  : { stdio: 40_000, http: 6_000, 'http-stateless': 6_000, 'stdio-2026': 40_000, 'http-2026': 6_000 };
const ROUNDS = smoke ? 1 : 2;

interface Started {
  pid: number;
  client: RpcClient;
  stop: () => Promise<void>;
}

async function start(server: ServerName, transport: Transport, env: NodeJS.ProcessEnv = {}): Promise<Started> {
  const modern = MODERN.has(transport);
  if (transport === 'stdio' || transport === 'stdio-2026') {
    const child = spawnServer([SCRIPTS[server], 'stdio'], env);
    const client = new StdioRpc(child, modern);
    if (!modern) {
      await client.call('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
      client.notify('notifications/initialized');
    }
    return { pid: child.pid!, client, stop: () => new Promise((resolve) => (child.once('exit', () => resolve()), child.stdin!.end(), setTimeout(() => child.kill('SIGKILL'), 3_000).unref())) };
  }
  const port = await freePort();
  // A modern request needs no session, so the server runs in its default (session) mode.
  const child = spawnServer([SCRIPTS[server], 'http'], { ...env, PORT: String(port), HOST: '127.0.0.1', MCP_HTTP_MODE: transport === 'http-stateless' ? 'stateless' : 'stateful' });
  await waitForPort(port);
  const client = new HttpRpc(`http://127.0.0.1:${port}/mcp`, modern);
  if (!modern) {
    await client.call('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
    await client.notify('notifications/initialized');
  }
  return {
    pid: child.pid!,
    client,
    stop: async () => {
      await client.close();
      await new Promise<void>((resolve) => (child.once('exit', () => resolve()), child.kill('SIGTERM'), setTimeout(() => child.kill('SIGKILL'), 3_000).unref()));
    },
  };
}

function textOf(answer: Message): string | undefined {
  const result = answer.result as { content?: Array<{ text?: string }>; isError?: boolean } | undefined;
  return result?.isError ? undefined : result?.content?.[0]?.text;
}

interface Measurement {
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  cpuUsPerCall: number;
}

/** `count` verified calls with `concurrency` in flight. */
async function measure(started: Started, workload: Workload, concurrency: number, count: number): Promise<Measurement> {
  const latencies: number[] = [];
  let next = 0;
  const cpuBefore = cpuMicros(started.pid);
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
  const cpu = cpuMicros(started.pid) - cpuBefore;
  latencies.sort((a, b) => a - b);
  return {
    callsPerSecond: Math.round(count / elapsed),
    p50Ms: round(latencies[Math.floor(latencies.length * 0.5)]),
    p99Ms: round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))]),
    cpuUsPerCall: round(cpu / count),
  };
}

function round(value: number): number {
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

async function coldStart(server: ServerName): Promise<number> {
  const t0 = performance.now();
  const started = await start(server, 'stdio');
  const tools = await started.client.call('tools/list');
  const ms = performance.now() - t0;
  if (!Array.isArray((tools.result as { tools?: unknown[] }).tools)) throw new Error(`${server}: no tools/list answer`);
  await started.stop();
  return round(ms);
}

async function main(): Promise<void> {
  const results: Record<string, unknown> = { date: new Date().toISOString(), smoke, node: process.version, calls: `${CALLS.stdio} (stdio) / ${CALLS.http} (HTTP)`, rounds: ROUNDS };
  const throughput: Record<string, Measurement[]> = {};
  const started = Date.now();

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
  // The cost of mcpkit's one info line per request (everything above runs at LOG_LEVEL=warn).
  for (const transport of ['stdio', 'http'] as Transport[]) {
    const runs: Measurement[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const target = await start('mcpkit', transport, { LOG_LEVEL: 'info' });
      if (!smoke) await measure(target, 'echo', 16, CALLS[transport] / 10);
      runs.push(await measure(target, 'echo', 16, CALLS[transport]));
      await target.stop();
    }
    throughput[`mcpkit+info-log|${transport}|echo|16`] = runs;
  }
  // The median round of each figure.
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  results.throughput = Object.fromEntries(
    Object.entries(throughput).map(([key, runs]) => [
      key,
      { callsPerSecond: median(runs.map((r) => r.callsPerSecond)), p50Ms: median(runs.map((r) => r.p50Ms)), p99Ms: median(runs.map((r) => r.p99Ms)), cpuUsPerCall: median(runs.map((r) => r.cpuUsPerCall)) },
    ]),
  );

  // Cold start to the first tools/list over stdio.
  const cold: Record<string, number> = {};
  for (const server of FIGURE_SERVERS) {
    const samples: number[] = [];
    for (let i = 0; i < (smoke ? 1 : 5); i++) samples.push(await coldStart(server));
    cold[server] = median(samples);
  }
  results.coldStartMs = cold;

  // Memory: idle, then after 20 000 calls.
  const memory: Record<string, { idleMb: number; after20kMb: number }> = {};
  for (const server of FIGURE_SERVERS) {
    const target = await start(server, 'stdio');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const idle = rssMb(target.pid);
    await measure(target, 'echo', 16, smoke ? 200 : 20_000);
    memory[server] = { idleMb: round(idle), after20kMb: round(rssMb(target.pid)) };
    await target.stop();
  }
  results.memory = memory;

  // tools/list with 505 tools.
  const list: Record<string, number> = {};
  for (const server of FIGURE_SERVERS) {
    const target = await start(server, 'stdio', { TOOLS: '500' });
    const times: number[] = [];
    for (let i = 0; i < (smoke ? 5 : 200); i++) {
      const t0 = performance.now();
      const answer = await target.client.call('tools/list');
      times.push(performance.now() - t0);
      if ((answer.result as { tools: unknown[] }).tools.length !== 505) throw new Error(`${server}: tools/list did not list 505 tools`);
    }
    list[server] = round(median(times));
    await target.stop();
  }
  results.toolsList505P50Ms = list;
  results.seconds = Math.round((Date.now() - started) / 1000);

  if (OUT) writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
  if (process.argv.includes('--docs')) {
    const page = join(__dirname, '..', '..', '..', 'docs', 'benchmarks.md');
    writeFileSync(page, withTables(readFileSync(page, 'utf8'), results));
  }
  console.log(renderMarkdown(results));
}

main().catch((error: unknown) => {
  console.error(`bench failed: ${(error as Error).stack ?? String(error)}`);
  process.exitCode = 1;
});
