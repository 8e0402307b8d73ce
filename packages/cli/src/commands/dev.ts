import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { dirname, join } from 'node:path';
import { InternalError, type RequestId } from '@mcpkit/core';
import { classify, errorResponse, parseMessage, type EraName, type Frame, type SessionSnapshot } from '@mcpkit/core/transport';
import { LineReader } from '@mcpkit/stdio';
import { CliError } from '../cli-error';
import { resolveEntry } from '../load-app';
import { err } from '../output';
import { parseEnvPairs, serverInputArgs } from '../server-input';
import type { SessionRecord } from '@mcpkit/fastify';
import { DEV_CHILD_ENV, type ChildMessage, type ServeMessage } from './dev-child';

export interface DevOptions {
  http?: boolean;
  port?: string;
  host?: string;
  /** The export that is the app (or returns it): passed on to `mcpkit start`. */
  export?: string;
  /** `--env K=V`, repeated: passed on to `mcpkit start`. */
  env?: string[];
  /** After `--`: the app's arguments, passed on to `mcpkit start`. */
  args?: string[];
}

const CLI = join(__dirname, '..', 'cli.js');
const MAX_LINE = 64 * 1024 * 1024;

function projectRoot(entry: string): string {
  for (let dir = dirname(entry); dirname(dir) !== dir; dir = dirname(dir)) if (existsSync(join(dir, 'package.json'))) return dir;
  return dirname(entry);
}

/**
 * `tsc --watch` for the project, when it has a tsconfig and TypeScript; its output goes to stderr.
 * `onPass` runs each time a compile pass ends, with the number of errors it found.
 */
function startCompiler(root: string, onPass: (errors: number) => void): ChildProcess | undefined {
  const config = ['tsconfig.build.json', 'tsconfig.json'].map((name) => join(root, name)).find(existsSync);
  if (!config) return undefined;
  let tsc: string;
  try {
    tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
  } catch {
    return undefined;
  }
  const compiler = spawn(process.execPath, [tsc, '-p', config, '--watch', '--preserveWatchOutput'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let pass = '';
  compiler.stdout?.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    pass += chunk.toString();
    if (!pass.includes('Watching for file changes')) return;
    const found = /Found (\d+) errors?\./.exec(pass);
    pass = '';
    onPass(found ? Number(found[1]) : 0);
  });
  compiler.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  return compiler;
}

/** Calls `onChange` once things settle after changes to the built output (a project without tsc). */
function watchOutput(dir: string, onChange: () => void): FSWatcher {
  let timer: NodeJS.Timeout | undefined;
  return watch(dir, { recursive: true }, (_event, file) => {
    if (file && !/\.(c?js|json)$/.test(file)) return;
    clearTimeout(timer);
    timer = setTimeout(onChange, 300);
  });
}

interface ChildHooks {
  /** The child was spawned (wire its output). */
  spawned(child: ChildProcess): void;
  /** The child loaded its build and now serves; `previous` (if any) is to be retired. */
  takeOver(child: ChildProcess, previous: ChildProcess | undefined): void;
  /** The serving child sent something else (a snapshot). */
  message(child: ChildProcess, message: ChildMessage): void;
  /** The serving child died on its own. */
  lost(): void;
}

/**
 * The server children of one dev session: the one serving and, during a rebuild, the one
 * starting. A new build takes over only once it says it loaded; when it throws on load or exits
 * first, the last good build keeps serving and the error stays on stderr.
 */
class ServerChildren {
  serving: ChildProcess | undefined = undefined;
  private starting: ChildProcess | undefined = undefined;
  /** Set when dev itself ends: a child exiting then is no news (not "waiting for the next build"). */
  ending = false;

  constructor(
    private readonly args: string[],
    private readonly stdio: StdioOptions,
    private readonly hooks: ChildHooks,
  ) {}

  start(): void {
    // A newer build supersedes one still loading.
    this.starting?.kill('SIGTERM');
    const child = spawn(process.execPath, this.args, { stdio: this.stdio, env: { ...process.env, [DEV_CHILD_ENV]: '1' } });
    this.starting = child;
    child.on('error', (error) => err(`mcpkit dev: could not start the server: ${error.message}`));
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'ready' && child === this.starting) {
        this.starting = undefined;
        const previous = this.serving;
        this.serving = child;
        this.hooks.takeOver(child, previous);
      } else if (child === this.serving) {
        this.hooks.message(child, message);
      }
    });
    child.once('exit', (code, signal) => {
      const how = code === null ? `signal ${signal}` : `code ${code}`;
      if (this.ending) return;
      if (child === this.starting) {
        this.starting = undefined;
        err(`mcpkit dev: the new build did not start (exit ${how}); ${this.serving ? 'still serving the last good build' : 'waiting for a build that starts'}`);
      } else if (child === this.serving) {
        this.serving = undefined;
        err(`mcpkit dev: the server exited (${how}); waiting for the next build`);
        this.hooks.lost();
      }
    });
    this.hooks.spawned(child);
  }

  stop(): void {
    this.ending = true;
    this.starting?.kill('SIGTERM');
    this.serving?.kill('SIGTERM');
  }
}

/** The messages of one line (a batch is several), classified by core; nothing for a line that is not JSON. */
function framesOf(text: string): Frame[] {
  const parsed = parseMessage(text);
  if (!parsed.ok) return [];
  return (Array.isArray(parsed.message) ? parsed.message : [parsed.message]).map((message) => classify(message));
}

const keyOf = (id: RequestId): string => JSON.stringify(id);

/**
 * What dev was given for the app, for the `mcpkit start` of each server child: `--export <name>`,
 * then `--env K=V`… and `-- args…` (last, since they end its command line).
 */
const startArgs = (options: DevOptions): string[] => [
  ...(options.export === undefined ? [] : ['--export', options.export]),
  ...serverInputArgs({ env: parseEnvPairs(options.env), args: options.args ?? [] }),
];

/**
 * Over stdio the dev process is the one the client launched: it relays lines between the client
 * and the serving child and keeps the session snapshot that child reports. A new build starts
 * from that snapshot and continues the session (core's session-restore API: no second handshake,
 * listens go on, the lists announced changed); requests in flight in the old child are answered
 * with a retryable error. The client never reconnects.
 */
function devStdio(entry: string, options: DevOptions): { restart: () => void; stop: () => void } {
  let snapshot: SessionSnapshot | undefined;
  // Requests relayed to the serving child and not answered yet: the old child takes them along.
  const inflight = new Map<string, { id: RequestId; era: EraName }>();
  // What the client sends while no build serves yet.
  const queue: string[] = [];
  // The serving build exited on its own (a crash): until the next one serves, requests get a retryable error, not silence.
  let crashed = false;

  const toClient = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);

  const exited = () => new InternalError('The server exited (mcpkit dev); send this again once the next build serves', { retryable: true });

  function failInflight(): void {
    const restored = new Set((snapshot?.listens ?? []).map((listen) => keyOf(listen.id)));
    const restarted = () => new InternalError('The server restarted (mcpkit dev) while handling this request; send it again', { retryable: true });
    for (const [key, { id, era }] of inflight) if (!restored.has(key)) toClient(errorResponse(id, restarted(), era));
    inflight.clear();
  }

  function forward(line: string): void {
    const child = children.serving;
    if (!child && crashed) {
      for (const frame of framesOf(line)) if (frame.kind === 'request') toClient(errorResponse(frame.id!, exited(), frame.era));
      return;
    }
    if (!child) return void queue.push(line);
    for (const frame of framesOf(line)) if (frame.kind === 'request') inflight.set(keyOf(frame.id!), { id: frame.id!, era: frame.era });
    child.stdin?.write(`${line}\n`);
  }

  const children = new ServerChildren([CLI, 'start', entry, '--stdio', ...startArgs(options)], ['pipe', 'pipe', 'inherit', 'ipc'], {
    spawned: (child) => {
      child.stdin?.on('error', () => undefined);
      const reader = new LineReader(MAX_LINE);
      child.stdout?.on('data', (chunk: Buffer) =>
        reader.push(chunk, (event) => {
          if (event.kind !== 'line' || child !== children.serving) return;
          for (const frame of framesOf(event.text)) if (frame.kind === 'response' && frame.id !== null) inflight.delete(keyOf(frame.id));
          process.stdout.write(`${event.text}\n`);
        }),
      );
    },
    takeOver: (child, previous) => {
      const serve: ServeMessage = { type: 'serve', restore: snapshot };
      child.send(serve);
      if (previous) {
        previous.kill('SIGTERM');
        err('mcpkit dev: the new build serves');
      }
      crashed = false;
      failInflight();
      for (const line of queue.splice(0)) forward(line);
    },
    message: (_child, message) => {
      if (message.type === 'snapshot') snapshot = message.snapshot;
    },
    lost: () => {
      crashed = true;
      failInflight();
    },
  });

  const clientReader = new LineReader(MAX_LINE);
  process.stdin.on('data', (chunk: Buffer) => clientReader.push(chunk, (event) => event.kind === 'line' && forward(event.text)));
  process.stdin.on('end', () => {
    const child = children.serving;
    if (!child) process.exit(0);
    children.ending = true;
    child.stdin?.end();
    child.once('exit', () => process.exit(0));
  });

  children.start();
  return { restart: () => children.start(), stop: () => children.stop() };
}

/**
 * Over HTTP the server child restarts behind the same port once the new build has loaded (the
 * port is handed over then); a build that fails to load leaves the old child serving. The
 * session records the serving child reports go to the next one, which rebuilds a session when
 * its client comes back (core's `restore`, as with a shared session store).
 */
function devHttp(entry: string, options: DevOptions): { restart: () => void; stop: () => void } {
  const args = [
    CLI,
    'start',
    entry,
    '--http',
    '--port',
    options.port ?? process.env.PORT ?? '3000',
    '--host',
    options.host ?? '127.0.0.1',
    ...startArgs(options),
  ];
  const sessions = new Map<string, SessionRecord>();
  const children = new ServerChildren(args, ['ignore', 'inherit', 'inherit', 'ipc'], {
    spawned: () => undefined,
    takeOver: (child, previous) => {
      const serve = () => child.send({ type: 'serve', sessions: [...sessions.values()] } satisfies ServeMessage);
      if (!previous || previous.exitCode !== null || previous.signalCode !== null) return serve();
      previous.once('exit', serve);
      previous.kill('SIGTERM');
    },
    message: (_child, message) => {
      if (message.type === 'session') sessions.set(message.record.id, message.record);
      else if (message.type === 'sessionEnded') sessions.delete(message.id);
    },
    lost: () => undefined,
  });
  children.start();
  return { restart: () => children.start(), stop: () => children.stop() };
}

/** `mcpkit dev [entry]`: rebuilds on change and restarts the server, keeping the client connected. */
export function dev(entryArg: string | undefined, options: DevOptions): void {
  const entry = resolveEntry(entryArg);
  // A wrong --env fails now, not in each server child.
  parseEnvPairs(options.env);
  const root = projectRoot(entry);
  if (!existsSync(dirname(entry))) throw new CliError(`No build output at ${dirname(entry)}`, 'Run npm run build once first.');
  let server: { restart: () => void; stop: () => void } | undefined;
  const serve = () => (options.http ? devHttp(entry, options) : devStdio(entry, options));
  // With tsc, the server starts from its first pass and restarts after each clean one: a pass
  // with type errors leaves the last good build serving.
  const compiler = startCompiler(root, (errors) => {
    if (!server) server = serve();
    else if (errors > 0) err(`mcpkit dev: ${errors} type error${errors === 1 ? '' : 's'}; still serving the last good build`);
    else server.restart();
  });
  if (!compiler) server = serve();
  const watcher = compiler ? undefined : watchOutput(dirname(entry), () => server?.restart());
  const stop = () => {
    watcher?.close();
    compiler?.kill('SIGTERM');
    server?.stop();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // However dev ends (the client closed stdin), tsc --watch must not outlive it; server children end with their IPC channel.
  process.once('exit', () => compiler?.kill('SIGTERM'));
}
