import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { INITIALIZE_REVISION } from './eras/handshake-client';

/** One JSON-RPC message as read from the server's stdout. */
export type RawMessage = Record<string, unknown>;

/** How a child process ended. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * A raw newline-delimited JSON-RPC client over a child process's stdio, for what a real SDK
 * client never sends: garbage, invalid envelopes, oversized lines, pipelined floods. Every stdout
 * line must be JSON; anything else is collected in `stray` so a test can assert it stays empty.
 *
 * @example
 * const server = RawStdioClient.spawn(process.execPath, ['dist/main.js']);
 * await server.initialize();
 * server.writeLine('not json');
 * expect(await server.next()).toMatchObject({ id: null, error: { code: -32700 } });
 * await server.end();
 */
export class RawStdioClient {
  /** Every JSON message the server wrote, in order. */
  readonly messages: RawMessage[] = [];
  /** Every stdout line as written, for what `JSON.parse` would lose (ids beyond 2^53). */
  readonly lines: string[] = [];
  /** stdout lines that were not JSON (should stay empty). */
  readonly stray: string[] = [];
  /** Everything the server wrote on stderr. */
  stderr = '';
  /** Resolves when the process exits. */
  readonly exited: Promise<ExitInfo>;
  private buffer = '';
  private cursor = 0;
  private nextId = 1;
  private waiters: Array<() => void> = [];

  private constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => this.onData(chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (this.stderr += chunk));
    child.stdin.on('error', () => undefined);
    this.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  }

  /** Starts `command args…` with piped stdio, in `cwd` when given. */
  static spawn(command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env, cwd?: string): RawStdioClient {
    return new RawStdioClient(spawn(command, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] }));
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) !== -1) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      this.lines.push(line);
      try {
        this.messages.push(JSON.parse(line) as RawMessage);
      } catch {
        this.stray.push(line);
      }
    }
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Writes one line exactly as given (a newline is added). */
  writeLine(text: string): void {
    this.child.stdin.write(text + '\n');
  }

  /** Writes bytes with no framing added. */
  write(data: string | Buffer): void {
    this.child.stdin.write(data);
  }

  /** Sends a message as one JSON line. */
  send(message: unknown): void {
    this.writeLine(JSON.stringify(message));
  }

  /** Waits for a message that satisfies `predicate`, among all received so far and to come. */
  async waitFor(predicate: (message: RawMessage) => boolean, timeoutMs = 10_000): Promise<RawMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(predicate);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`No matching message within ${timeoutMs} ms; got ${JSON.stringify(this.messages.slice(-5))}; stderr: ${this.stderr.slice(-500)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The next message not yet returned by `next`. */
  async next(timeoutMs = 10_000): Promise<RawMessage> {
    const index = this.cursor;
    await this.waitFor(() => this.messages.length > index, timeoutMs);
    this.cursor = index + 1;
    return this.messages[index];
  }

  /** Sends a request with a fresh numeric id and waits for its response. */
  async request(method: string, params?: Record<string, unknown>, timeoutMs?: number): Promise<RawMessage> {
    const id = this.nextId++;
    this.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    return this.waitFor((message) => message.id === id, timeoutMs);
  }

  /** The handshake: `initialize` then `notifications/initialized`. */
  async initialize(protocolVersion: string = INITIALIZE_REVISION): Promise<RawMessage> {
    const response = await this.request('initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 'raw-test-client', version: '0.0.0' } });
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return response;
  }

  /** Closes stdin (EOF) and waits for the process to exit. */
  async end(): Promise<ExitInfo> {
    this.child.stdin.end();
    return this.exited;
  }

  /** Kills the process if it still runs. */
  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
  }
}
