import { spawn, type ChildProcess } from 'node:child_process';
import type { JsonRpcMessage } from '@mcpkit/core';
import { parseMessage, type EncodeLimits } from '@mcpkit/core/transport';
import { LineReader, type LineEvent } from '@mcpkit/stdio';
import { ClientErrorCode, McpClientError } from '../client-error';
import { encodeRequest } from './encode-request';
import type { ClientTransport, TransportSink } from './client-transport';

/** A server to spawn and speak to over its stdin and stdout. */
export interface StdioTarget {
  command: string;
  args?: readonly string[];
  /** The child's environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /**
   * What becomes of the child's stderr (its logs): `inherit` (default) passes it to this
   * process's stderr; `pipe` captures it: its last 64 KiB are kept (`transport.stderrTail`, and
   * in the error that tells the child exited), the stream stays readable on `transport.stderr`;
   * `ignore` drops it.
   */
  stderr?: 'inherit' | 'pipe' | 'ignore';
}

const STDERR_TAIL = 64 * 1024;

/** Bounds of the stdio transport. */
export interface StdioLimits extends EncodeLimits {
  /** Longest wait in ms after closing the child's stdin, then SIGTERM, then as long again before SIGKILL. */
  shutdownGraceMs: number;
}

/**
 * The client side of the stdio transport: spawns the server, writes one JSON message per line on
 * its stdin and reads lines from its stdout with the server's own line reader (a line over
 * `maxMessageBytes` is never held whole). Stdout carries only the protocol: a line that is not
 * JSON, or is too long, breaks the connection with a clear error (its request cannot be told),
 * and so does the child's exit; every waiting request then fails.
 */
export class StdioClientTransport implements ClientTransport {
  readonly kind = 'stdio';
  private child: ChildProcess | undefined;
  private sink: TransportSink | undefined;
  private ended = false;
  private stdoutEnded = false;
  private tail = '';
  // The lines sent this tick, written together: one pipe write (and one wake-up of the child) for
  // every request a burst of calls makes, instead of one each.
  private queued: string[] = [];
  private queuedBytes = 0;
  private flushing: NodeJS.Immediate | undefined = undefined;

  constructor(
    private readonly target: StdioTarget,
    private readonly limits: StdioLimits,
  ) {}

  /** The child's stderr when `stderr: 'pipe'` was asked for. */
  get stderr(): NodeJS.ReadableStream | undefined {
    return this.child?.stderr ?? undefined;
  }

  /** The last 64 KiB (in characters) the child wrote on stderr, with `stderr: 'pipe'`. */
  get stderrTail(): string {
    return this.tail;
  }

  /** The child's process id, once spawned. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(sink: TransportSink): Promise<void> {
    this.sink = sink;
    const child = spawn(this.target.command, [...(this.target.args ?? [])], {
      env: this.target.env ?? process.env,
      cwd: this.target.cwd,
      stdio: ['pipe', 'pipe', this.target.stderr ?? 'inherit'],
      windowsHide: true,
    });
    this.child = child;
    const reader = new LineReader(this.limits.maxMessageBytes);
    const emit = (event: LineEvent) => this.line(event);
    child.stdout!.on('data', (chunk: Buffer) => reader.push(chunk, emit));
    child.stdout!.on('end', () => {
      this.stdoutEnded = true;
      reader.end(emit);
    });
    // Read always, so a child that logs much never blocks on a full pipe; only the tail is kept.
    child.stderr?.on('data', (chunk: Buffer) => (this.tail = (this.tail + chunk.toString('utf8')).slice(-STDERR_TAIL)));
    // A write to a child that is gone fails here; its exit says why.
    child.stdin!.on('error', () => undefined);
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error) => {
        const failure = new McpClientError(ClientErrorCode.ConnectionClosed, `could not start ${this.target.command}: ${error.message}`, undefined, {
          cause: error,
        });
        this.end(failure);
        reject(failure);
      });
      // 'close', not 'exit': stdout and stderr are read to their end first (a last answer, the last log line).
      child.once('close', (code, signal) => {
        const how = signal === null ? `with code ${code}` : `on ${signal}`;
        const stderr = this.tail === '' ? {} : { stderr: this.tail.slice(-2_000) };
        this.end(new McpClientError(ClientErrorCode.ConnectionClosed, `the server process exited ${how}`, { code, signal, ...stderr }));
      });
    });
  }

  send(message: JsonRpcMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (this.ended || !stdin || !stdin.writable) return Promise.reject(new McpClientError(ClientErrorCode.ConnectionClosed, 'the server process is gone'));
    // A child that stops reading would make this process hold every message sent after it.
    const waiting = stdin.writableLength + this.queuedBytes;
    if (waiting > this.limits.maxMessageBytes) {
      return Promise.reject(
        new McpClientError(ClientErrorCode.TooManyPendingRequests, `the server reads nothing: ${waiting} bytes already wait for its stdin (maxMessageBytes)`, {
          limit: this.limits.maxMessageBytes,
        }),
      );
    }
    const text = encodeRequest(message, this.limits);
    if (text === undefined) return Promise.reject(tooLarge(message, this.limits.maxMessageBytes));
    this.queued.push(text);
    this.queuedBytes += text.length + 1;
    this.flushing ??= setImmediate(this.flush);
    return Promise.resolve();
  }

  /** Writes the lines queued this tick, in order, in one write. */
  private readonly flush = (): void => {
    this.flushing = undefined;
    const lines = this.queued;
    this.queued = [];
    this.queuedBytes = 0;
    const stdin = this.child?.stdin;
    if (lines.length === 0 || this.ended || !stdin || !stdin.writable) return;
    stdin.write(lines.length === 1 ? `${lines[0]}\n` : `${lines.join('\n')}\n`);
  };

  setProtocolVersion(): void {}

  /** Closes stdin, then SIGTERM, then SIGKILL, each after `shutdownGraceMs` (protocol.md §3.1 shutdown). */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    // What was sent before the close still goes (a last notification).
    if (this.flushing !== undefined) {
      clearImmediate(this.flushing);
      this.flush();
    }
    this.end(new McpClientError(ClientErrorCode.ConnectionClosed, 'the client closed the connection'));
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin?.end();
    const grace = this.limits.shutdownGraceMs;
    const term = setTimeout(() => child.kill('SIGTERM'), grace);
    const kill = setTimeout(() => child.kill('SIGKILL'), 2 * grace);
    await exited;
    clearTimeout(term);
    clearTimeout(kill);
  }

  private line(event: LineEvent): void {
    if (this.ended) return;
    if (event.kind === 'oversized') {
      this.fatal(`the server wrote a line over ${this.limits.maxMessageBytes} bytes (maxMessageBytes)`);
      return;
    }
    const parsed = parseMessage(event.text);
    // Half a line at the end of stdout: the child died writing it, and its exit (code, stderr) says more.
    if (!parsed.ok && this.stdoutEnded) return;
    if (!parsed.ok) {
      this.fatal(`the server wrote a line that is not JSON on stdout: ${JSON.stringify(event.text.slice(0, 80))}`);
      return;
    }
    this.sink!.message(parsed.message);
  }

  /** Stdout is no longer the protocol: nothing after this line can be trusted. */
  private fatal(why: string): void {
    this.end(new McpClientError(ClientErrorCode.InvalidResponse, why));
    this.child?.kill('SIGTERM');
  }

  private end(error: McpClientError): void {
    if (this.ended) return;
    this.ended = true;
    this.sink?.closed(error);
  }
}

/** A message the client would send is over the bound: it is not sent. */
export function tooLarge(message: JsonRpcMessage, maxBytes: number): McpClientError {
  const what = 'method' in message ? message.method : 'an answer';
  return new McpClientError(ClientErrorCode.MessageTooLarge, `${what} is over ${maxBytes} bytes (maxMessageBytes) and was not sent`, { limit: maxBytes });
}
