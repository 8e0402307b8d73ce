import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { track } from './clients';
import { freePort, waitForPort } from './proc';

/** The bench's own redis-server: a free loopback port, a temp dir, no persistence, stopped by PID. */
export interface BenchRedis {
  readonly url: string;
  readonly pid: number;
  /** Commands Redis has run so far (INFO commandstats), this query's own INFO excluded. */
  commands(): Promise<number>;
  stop(): Promise<void>;
}

/** Starts `redis-server` (the Debian package's binary, or `REDIS_SERVER`). */
export async function startBenchRedis(): Promise<BenchRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-bench-redis-'));
  const binary = process.env.REDIS_SERVER ?? 'redis-server';
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--logfile', join(dir, 'redis.log')],
    {
      stdio: 'ignore',
    },
  );
  track(child);
  const failed = new Promise<never>((_, reject) =>
    child.once('error', (error) => reject(new Error(`${binary} could not start (${error.message}): install redis-server`))),
  );
  await Promise.race([waitForPort(port), failed]);
  let queries = 0;
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid!,
    commands: async () => {
      const info = await infoCommandstats(port);
      queries += 1;
      // Every INFO before this one counted itself.
      return [...info.matchAll(/^cmdstat_[^:]+:calls=(\d+)/gm)].reduce((sum, match) => sum + Number(match[1]), 0) - (queries - 1);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(rmSync(dir, { recursive: true, force: true }));
        const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
        child.once('exit', () => {
          clearTimeout(timer);
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** `INFO commandstats` over a plain socket (RESP): one bulk string. */
function infoCommandstats(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write('INFO commandstats\r\n'));
    let reply = '';
    const timer = setTimeout(() => (socket.destroy(), reject(new Error('redis-server did not answer INFO'))), 5_000);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      reply += chunk;
      const header = /^\$(\d+)\r\n/.exec(reply);
      if (header && Buffer.byteLength(reply) >= header[0].length + Number(header[1]) + 2) {
        clearTimeout(timer);
        socket.destroy();
        resolve(reply.slice(header[0].length));
      }
    });
    socket.on('error', (error) => (clearTimeout(timer), reject(error)));
  });
}
