import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onFreePort } from '../../../../packages/redis/test/support/redis-server';

const SCALE_OUT_DOC = join(__dirname, '..', '..', '..', '..', 'docs', 'scale-out.md');

/**
 * The nginx configuration of docs/scale-out.md (its one fenced `nginx` block), with the ports of
 * this run put in: the docs and the test cannot drift apart. Throws when the block is not there
 * or no longer names what gets substituted (the recipe's two upstreams and its listen address).
 */
export function recipeConfig(upstreamPorts: readonly [number, number], listenPort: number, doc = SCALE_OUT_DOC): string {
  const blocks = [...readFileSync(doc, 'utf8').matchAll(/^```nginx\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
  if (blocks.length !== 1) throw new Error(`${doc}: expected one \`\`\`nginx block, found ${blocks.length}`);
  let config = blocks[0];
  const substitute = (from: string, to: string): void => {
    if (!config.includes(from)) throw new Error(`${doc}: the nginx recipe no longer contains "${from}"`);
    config = config.replace(from, to);
  };
  substitute('server 127.0.0.1:3001;', `server 127.0.0.1:${upstreamPorts[0]};`);
  substitute('server 127.0.0.1:3002;', `server 127.0.0.1:${upstreamPorts[1]};`);
  substitute('listen 127.0.0.1:8080;', `listen 127.0.0.1:${listenPort};`);
  return config;
}

/** A real nginx of one test file: its own prefix dir, config, logs and pid file under a temp dir. */
export interface Nginx {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  readonly dir: string;
  /** Its access log so far (one line per request once it ended: `<status> <upstream address> <request>`). */
  accessLog(): string;
  /** SIGTERM to the master (fast shutdown: open streams are cut), SIGKILL to its process group after 5 s; removes the dir. */
  stop(): Promise<void>;
}

/**
 * Starts nginx (`NGINX` or `nginx` on PATH) in the foreground with `config` on a free loopback
 * port: `-p` a temp dir, the pid file, error and access logs and temp files in it, so nothing of
 * the machine's nginx is read or written. `config` is made from the port: `(port) => recipeConfig(…, port)`.
 *
 * @example
 * const nginx = await startNginx((port) => recipeConfig([portA, portB], port));
 * afterAll(() => nginx.stop());
 */
export async function startNginx(config: (port: number) => string, startTimeoutMs = 10_000): Promise<Nginx> {
  const binary = process.env.NGINX ?? 'nginx';
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-nginx-'));
  mkdirSync(join(dir, 'logs'));
  const errorLog = join(dir, 'logs', 'error.log');
  const accessLog = join(dir, 'logs', 'access.log');
  let child: ChildProcess | undefined;
  let port = 0;

  const launch = async (): Promise<void> => {
    // Paths only: where this run's files go (the recipe's http block stays as the docs have it).
    const http = [
      `log_format upstream '$status $upstream_addr "$request"';`,
      `access_log ${accessLog} upstream;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `${kind}_temp_path ${join(dir, `${kind}-temp`)};`),
    ].join(' ');
    const text = config(port).replace(/^http \{$/m, `http {\n  ${http.replace(/; /g, ';\n  ')}`);
    if (!text.includes(accessLog)) throw new Error('the nginx config has no "http {" line to add the paths of this run to');
    writeFileSync(join(dir, 'nginx.conf'), text);
    // As root the workers would run as `nobody`, who cannot write the temp dir: keep them root.
    const globals = `daemon off; pid ${join(dir, 'nginx.pid')}; error_log ${errorLog} warn;${process.getuid?.() === 0 ? ' user root;' : ''}`;
    const started = spawn(binary, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', errorLog, '-g', globals], { stdio: 'ignore', detached: true });
    child = started;
    let exited = false;
    let spawnError: Error | undefined;
    started.once('error', (error) => {
      spawnError = error;
      exited = true;
    });
    started.once('exit', () => {
      exited = true;
    });
    const deadline = Date.now() + startTimeoutMs;
    while (Date.now() < deadline) {
      if (spawnError) {
        throw new Error(`${binary} could not be started (${spawnError.message}): install nginx (node scripts/ensure-test-servers.js) or set NGINX=<path>`);
      }
      if (exited) throw new Error(`nginx exited at start; its log:\n${readTail(errorLog)}`);
      if (await listening(port)) return;
      await sleep(25);
    }
    await killGroup(started);
    throw new Error(`nginx did not listen on port ${port} within ${startTimeoutMs} ms; its log:\n${readTail(errorLog)}`);
  };

  try {
    await onFreePort(
      (free) => {
        port = free;
        return launch();
      },
      (error) => String(error).includes('Address already in use'),
    );
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const running = child!;
  return {
    origin: `http://127.0.0.1:${port}`,
    dir,
    accessLog: () => readTail(accessLog, Infinity),
    stop: async () => {
      await killGroup(running);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** SIGTERM to the master, which ends its workers; past 5 s, SIGKILL to its whole process group. */
async function killGroup(master: ChildProcess): Promise<void> {
  if (master.pid === undefined || master.exitCode !== null || master.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => master.once('exit', () => resolve()));
  master.kill('SIGTERM');
  const timer = setTimeout(() => {
    try {
      process.kill(-master.pid!, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }, 5_000);
  await gone;
  clearTimeout(timer);
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function readTail(path: string, chars = 2_000): string {
  try {
    const text = readFileSync(path, 'utf8');
    return Number.isFinite(chars) ? text.slice(-chars) : text;
  } catch {
    return '(no log)';
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
