// pnpm bench:instructions: user-space instructions per call, counted by valgrind's callgrind.
// CPU time on a shared 2-core machine moves ±20% between runs; an instruction count barely moves
// with the load beside it, so two builds (or mcpkit and the raw server) compare within a few per
// cent. It counts only user space (the kernel's share of a socket write is not in it) and runs
// ~50× slower, so it is a tool for A/B questions, not a replacement for `pnpm bench`.
//
// node apps/bench/dist/instructions.js [--transport http|http-2026|stdio] [--level warn|default]
//   [--calls 2000,6000 (stdio: 10000,30000)] [--repeat 2] [name=path/to/server.js ...]
// Without name=path pairs it measures the raw server and this checkout's testbed. A path is any
// server that takes the testbed's arguments (`stdio` | `http`, PORT, HOST), e.g. another
// checkout's apps/testbed/dist/main.js.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpRpc, StdioRpc } from './clients';
import { freePort, waitForPort } from './proc';

type Transport = 'stdio' | 'http' | 'http-2026';

const flag = (name: string) => (process.argv.indexOf(name) > 0 ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const transport = (flag('--transport') ?? 'http') as Transport;
if (!['stdio', 'http', 'http-2026'].includes(transport)) throw new Error(`--transport takes stdio, http or http-2026, not "${transport}"`);
const level = flag('--level') ?? 'warn';
// Enough calls that the JIT has settled in both runs: the difference is then the calls alone.
const [fewer, more] = (flag('--calls') ?? (transport === 'stdio' ? '10000,30000' : '2000,6000')).split(',').map(Number);
if (!(fewer > 0 && more > fewer)) throw new Error('--calls takes two counts, the second larger: 2000,6000');
const repeat = Number(flag('--repeat') ?? 2);
const named = process.argv.slice(2).filter((arg) => /^[^-][^=]*=/.test(arg));
const servers: Array<[string, string]> = named.length
  ? named.map((arg) => [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)])
  : [
      ['raw', join(__dirname, 'servers', 'raw-server.js')],
      ['mcpkit', require.resolve('@mcpkit/app-testbed/dist/main.js')],
    ];

if (spawnSync('valgrind', ['--version']).status !== 0) {
  process.stderr.write('bench:instructions needs valgrind (Debian: apt-get install valgrind)\n');
  process.exit(2);
}

/** Total instructions of one server process that answered `calls` echo calls, 16 in flight. */
async function count(script: string, calls: number, folder: string): Promise<number> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', MCP_HTTP_MODE: 'stateful' };
  delete env.LOG_LEVEL;
  if (level !== 'default') env.LOG_LEVEL = level;
  const port = transport === 'stdio' ? 0 : await freePort();
  env.PORT = String(port);
  const args = ['--tool=callgrind', `--callgrind-out-file=${join(folder, 'callgrind.%p')}`, '--smc-check=all-non-file', process.execPath, script];
  const child = spawn('valgrind', [...args, transport === 'stdio' ? 'stdio' : 'http'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-20_000)));
  const modern = transport === 'http-2026';
  let client: StdioRpc | HttpRpc;
  if (transport === 'stdio') client = new StdioRpc(child, false);
  else {
    // Node under valgrind on a loaded 2-core machine can take minutes to listen.
    await waitForPort(port, 600_000);
    client = new HttpRpc(`http://127.0.0.1:${port}/mcp`, modern);
  }
  if (!modern) {
    await client.call('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
    await client.notify('notifications/initialized');
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < calls) {
        const i = next++;
        const answer = await client.call('tools/call', { name: 'echo', arguments: { text: `hello ${i}` } });
        if (!answer.result) throw new Error(`call ${i} failed: ${JSON.stringify(answer).slice(0, 300)}`);
      }
    }),
  );
  await client.close();
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    // stdio: the client's close ended stdin, which ends the server.
    if (transport !== 'stdio') child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 60_000).unref();
  });
  const collected = /Collected : (\d+)/.exec(stderr);
  if (!collected) throw new Error(`no instruction count from valgrind for ${script}:\n${stderr.slice(-2000)}`);
  return Number(collected[1]);
}

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'mcpkit-instructions-'));
  try {
    process.stdout.write(
      `user-space instructions per echo call, ${transport}, LOG_LEVEL ${level}, 16 in flight: (${more} − ${fewer} calls) / difference, ${repeat} runs each, interleaved\n`,
    );
    const perCall = new Map<string, number[]>(servers.map(([name]) => [name, []]));
    // Interleaved, and each figure a difference of two runs, so start-up and JIT warm-up cancel out.
    for (let round = 0; round < repeat; round++) {
      for (const [name, script] of servers) {
        const figure = ((await count(script, more, folder)) - (await count(script, fewer, folder))) / (more - fewer);
        perCall.get(name)!.push(figure);
        process.stdout.write(`  ${name} round ${round + 1}: ${Math.round(figure)}\n`);
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
    const base = median(perCall.get(servers[0][0])!);
    process.stdout.write(`\n| server | instructions per call (median) | spread | vs ${servers[0][0]} |\n| --- | --- | --- | --- |\n`);
    for (const [name] of servers) {
      const values = perCall.get(name)!;
      const spread = Math.max(...values) - Math.min(...values);
      process.stdout.write(`| ${name} | ${Math.round(median(values))} | ±${Math.round(spread / 2)} | ${(median(values) / base).toFixed(2)}× |\n`);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
