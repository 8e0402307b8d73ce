import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Options of `startRedisServer`. */
export interface RedisServerOptions {
  /** Append-only file with `appendfsync always`, so a restart keeps every acknowledged write (default false: nothing survives a restart). */
  appendOnly?: boolean;
  /** The binary (default `REDIS_SERVER` or `redis-server` on PATH). */
  binary?: string;
  /** Longest wait for the server to answer PING, in ms (default 10 000). */
  startTimeoutMs?: number;
}

/** A real `redis-server` of one test file: its own loopback port and temp dir, stopped by PID. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** The running server's PID (undefined while stopped). */
  readonly pid: number | undefined;
  /** Its directory (AOF files, `redis.log`). */
  readonly dir: string;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and removes its directory. */
  stop(): Promise<void>;
  /** Sends `signal` (default SIGKILL) and waits until the process is gone; the directory stays for a `restart`. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port and directory (with AOF, the data is back). */
  restart(): Promise<void>;
}

/**
 * Starts `redis-server` on a free loopback port (never `--port 0`: that turns TCP off) with its
 * own temp dir and `--save ''`, and waits until it answers PING.
 *
 * @example
 * const redis = await startRedisServer({ appendOnly: true });
 * afterAll(() => redis.stop());
 * const scaleOut = redisScaleOut({ url: redis.url, prefix: 'mcpkit-test-sessions:' });
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const binary = options.binary ?? process.env.REDIS_SERVER ?? 'redis-server';
  const startTimeoutMs = options.startTimeoutMs ?? 10_000;
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-redis-'));
  let child: ChildProcess | undefined;
  let port = 0;

  const launch = async (): Promise<void> => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir, '--logfile', join(dir, 'redis.log'), '--daemonize', 'no'];
    if (options.appendOnly) args.push('--appendonly', 'yes', '--appendfsync', 'always');
    const started = spawn(binary, args, { stdio: 'ignore' });
    child = started;
    let exited = false;
    started.once('exit', () => {
      exited = true;
      if (child === started) child = undefined;
    });
    const deadline = Date.now() + startTimeoutMs;
    while (Date.now() < deadline) {
      if (exited) throw new Error(`redis-server exited at start; its log:\n${readLog(dir)}`);
      if (await ping(port)) return;
      await sleep(25);
    }
    started.kill('SIGKILL');
    throw new Error(`redis-server did not answer PING on port ${port} within ${startTimeoutMs} ms; its log:\n${readLog(dir)}`);
  };

  try {
    await onFreePort((free) => {
      port = free;
      return launch();
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  const kill = async (signal: NodeJS.Signals = 'SIGKILL'): Promise<void> => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill(signal);
    const timer = setTimeout(() => running.kill('SIGKILL'), 5_000);
    await gone;
    clearTimeout(timer);
  };

  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    get pid() {
      return child?.pid;
    },
    kill,
    restart: async () => {
      await kill('SIGKILL');
      await launch();
    },
    stop: async () => {
      await kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A loopback TCP port nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Runs `launch` on a free loopback port, and again on another (three tries in all) when it
 * fails and `retry` says so: a port found free can be taken before the server binds it. Throws
 * the last try's error.
 *
 * @example
 * await onFreePort((free) => startOn(free), (error) => String(error).includes('Address already in use'));
 */
export async function onFreePort(launch: (port: number) => Promise<void>, retry: (error: unknown) => boolean = () => true): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await launch(await freePort());
    } catch (error) {
      if (attempt === 3 || !retry(error)) throw error;
    }
  }
}

/** True when a server on `port` answers `PING` with `+PONG` within half a second. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let answer = '';
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), 500);
    socket.once('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
  });
}

function readLog(dir: string): string {
  try {
    return readFileSync(join(dir, 'redis.log'), 'utf8').slice(-2_000);
  } catch {
    return '(no log)';
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
