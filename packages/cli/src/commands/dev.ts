import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { dirname, join } from 'node:path';
import { SUBSCRIPTION_ID, SUBSCRIPTIONS_ACKNOWLEDGED, SUBSCRIPTIONS_LISTEN } from '@mcpkit/core';
import { LineReader } from '@mcpkit/stdio';
import { CliError } from '../cli-error';
import { resolveEntry } from '../load-app';
import { err } from '../output';

export interface DevOptions {
  http?: boolean;
  port?: string;
  host?: string;
}

const CLI = join(__dirname, '..', 'cli.js');
const REPLAY_ID = 'mcpkit-dev-replay';

function projectRoot(entry: string): string {
  for (let dir = dirname(entry); dirname(dir) !== dir; dir = dirname(dir)) if (existsSync(join(dir, 'package.json'))) return dir;
  return dirname(entry);
}

/**
 * `tsc --watch` for the project, when it has a tsconfig and TypeScript; its output goes to stderr.
 * `onIdle` runs each time a compile pass ends.
 */
function startCompiler(root: string, onIdle: () => void): ChildProcess | undefined {
  const config = ['tsconfig.build.json', 'tsconfig.json'].map((name) => join(root, name)).find(existsSync);
  if (!config) return undefined;
  let tsc: string;
  try {
    tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
  } catch {
    return undefined;
  }
  const compiler = spawn(process.execPath, [tsc, '-p', config, '--watch', '--preserveWatchOutput'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  compiler.stdout?.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    if (chunk.toString().includes('Watching for file changes')) onIdle();
  });
  compiler.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  return compiler;
}

/** Calls `onChange` once things settle after changes to the built output. */
function watchOutput(dir: string, onChange: () => void): FSWatcher {
  let timer: NodeJS.Timeout | undefined;
  return watch(dir, { recursive: true }, (_event, file) => {
    if (file && !/\.(c?js|json)$/.test(file)) return;
    clearTimeout(timer);
    timer = setTimeout(onChange, 300);
  });
}

type Message = { id?: string | number; method?: string; params?: Record<string, unknown> };

function parseLine(line: string): Message | undefined {
  try {
    const message = JSON.parse(line) as unknown;
    return typeof message === 'object' && message !== null && !Array.isArray(message) ? (message as Message) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Over stdio the dev process is the one the client launched: it relays to a server child and,
 * on a rebuild, restarts the child, replays the client's `initialize` and its open 2026-07-28
 * `subscriptions/listen` requests, fails what else was in flight with a retryable error, and
 * tells the client the lists changed. The client never reconnects.
 */
function devStdio(entry: string): { restart: () => void; stop: () => void } {
  let child: ChildProcess | undefined;
  let ready = false;
  let initialize: string | undefined;
  let initialized = false;
  const pending = new Set<string | number>();
  // Open subscriptions/listen requests by id: they outlive a restart, replayed on the new child.
  const listens = new Map<string | number, { line: string; replaying: boolean }>();
  const queue: string[] = [];
  const clientReader = new LineReader(64 * 1024 * 1024);
  let replays = 0;

  const toClient = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);

  function spawnChild(): void {
    const current = spawn(process.execPath, [CLI, 'start', entry, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
    child = current;
    ready = initialize === undefined;
    const reader = new LineReader(64 * 1024 * 1024);
    current.stdout?.on('data', (chunk: Buffer) =>
      reader.push(chunk, (event) => {
        if (event.kind !== 'line' || child !== current) return;
        const message = parseLine(event.text);
        if (message && typeof message.id === 'string' && message.id.startsWith(REPLAY_ID) && message.method === undefined) {
          // The replayed handshake is ours to finish, not the client's to see.
          if (initialized) current.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
          ready = true;
          replayListens(current);
          for (const line of queue.splice(0)) forward(line);
          for (const list of ['tools', 'resources', 'prompts']) toClient({ jsonrpc: '2.0', method: `notifications/${list}/list_changed` });
          return;
        }
        if (message?.method === SUBSCRIPTIONS_ACKNOWLEDGED && relistened(message)) return;
        if (message && message.id !== undefined && message.method === undefined) {
          pending.delete(message.id);
          listens.delete(message.id);
        }
        process.stdout.write(`${event.text}\n`);
      }),
    );
    current.stdin?.on('error', () => undefined);
    if (initialize) {
      replays += 1;
      const replay = JSON.parse(initialize) as Record<string, unknown>;
      current.stdin?.write(`${JSON.stringify({ ...replay, id: `${REPLAY_ID}-${replays}` })}\n`);
    } else {
      replayListens(current);
      for (const line of queue.splice(0)) forward(line);
    }
  }

  function replayListens(current: ChildProcess): void {
    for (const listen of listens.values()) {
      listen.replaying = true;
      current.stdin?.write(`${listen.line}\n`);
    }
  }

  /**
   * The new child's acknowledgement of a replayed listen is ours: the client was acknowledged
   * once. It learns instead that the lists may have changed, on the same subscription.
   */
  function relistened(message: Message): boolean {
    const meta = message.params?._meta as Record<string, unknown> | undefined;
    const id = meta?.[SUBSCRIPTION_ID] as string | number | undefined;
    const listen = id === undefined ? undefined : listens.get(id);
    if (!listen?.replaying) return false;
    listen.replaying = false;
    const honoured = (message.params?.notifications ?? {}) as Record<string, unknown>;
    for (const list of ['tools', 'resources', 'prompts']) {
      if (honoured[`${list}ListChanged`] === true) toClient({ jsonrpc: '2.0', method: `notifications/${list}/list_changed`, params: { _meta: { [SUBSCRIPTION_ID]: id } } });
    }
    return true;
  }

  function forward(line: string): void {
    const message = parseLine(line);
    if (message?.method === 'initialize') initialize = line;
    if (message?.method === 'notifications/initialized') initialized = true;
    if (message?.method === SUBSCRIPTIONS_LISTEN && message.id !== undefined) listens.set(message.id, { line, replaying: false });
    else if (message?.method && message.id !== undefined) pending.add(message.id);
    if (message?.method === 'notifications/cancelled') listens.delete(message.params?.requestId as string | number);
    child?.stdin?.write(`${line}\n`);
  }

  process.stdin.on('data', (chunk: Buffer) =>
    clientReader.push(chunk, (event) => {
      if (event.kind !== 'line') return;
      if (ready) forward(event.text);
      else queue.push(event.text);
    }),
  );
  process.stdin.on('end', () => {
    child?.stdin?.end();
    child?.once('exit', () => process.exit(0));
  });

  spawnChild();
  return {
    restart: () => {
      const old = child;
      // Until the new server has the client's handshake, the client's messages wait.
      ready = false;
      child = undefined;
      old?.kill('SIGTERM');
      // Work in flight is lost with the old process: say so, in a way a client may retry.
      for (const id of pending) {
        toClient({ jsonrpc: '2.0', id, error: { code: -32603, message: 'The server restarted (mcpkit dev) while handling this request; send it again', data: { retryable: true } } });
      }
      pending.clear();
      err('mcpkit dev: rebuilt, restarting the server');
      spawnChild();
    },
    stop: () => child?.kill('SIGTERM'),
  };
}

/** Over HTTP the server child restarts behind the same port; legacy sessions end with it. */
function devHttp(entry: string, options: DevOptions): { restart: () => void; stop: () => void } {
  let child: ChildProcess | undefined;
  const args = [CLI, 'start', entry, '--http', '--port', options.port ?? process.env.PORT ?? '3000', '--host', options.host ?? '127.0.0.1'];
  const spawnChild = () => (child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] }));
  spawnChild();
  return {
    restart: () => {
      const old = child;
      err('mcpkit dev: rebuilt, restarting the server');
      if (!old || old.exitCode !== null) return void spawnChild();
      old.once('exit', spawnChild);
      old.kill('SIGTERM');
    },
    stop: () => child?.kill('SIGTERM'),
  };
}

/** `mcpkit dev [entry]`: rebuilds on change and restarts the server, keeping the client connected. */
export function dev(entryArg: string | undefined, options: DevOptions): void {
  const entry = resolveEntry(entryArg);
  const root = projectRoot(entry);
  // tsc's first pass rewrites every output file: restarts only count once it has settled.
  let settled = false;
  const compiler = startCompiler(root, () => setTimeout(() => (settled = true), 500));
  if (!compiler) settled = true;
  if (!existsSync(dirname(entry))) throw new CliError(`No build output at ${dirname(entry)}`, 'Run npm run build once first.');
  const server = options.http ? devHttp(entry, options) : devStdio(entry);
  const watcher = watchOutput(dirname(entry), () => settled && server.restart());
  const stop = () => {
    watcher.close();
    compiler?.kill('SIGTERM');
    server.stop();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
