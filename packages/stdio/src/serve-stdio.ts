import type { Readable, Writable } from 'node:stream';
import { createLogger, type AuthInfo, type JsonRpcMessage, type McpApp } from '@mcpkit/core';
import {
  MessageChannel,
  readBody,
  DEFAULT_MAX_RESPONSE_BYTES,
  readOptions,
  optionTypeError,
  duration,
  assertApp,
  writesToStdout,
  type OptionTable,
} from '@mcpkit/core/transport';
import type { SessionSnapshot } from '@mcpkit/core/transport';
import { LineReader, type LineEvent } from './line-reader';
import { logAbandoned } from './log-abandoned';
import { guardStdout } from './stdout-guard';

/** Options of `serveStdio`. Each option's rule and default are in `STDIO_OPTIONS` below: a new option goes in both. */
export interface StdioOptions {
  /** Input stream (default `process.stdin`). */
  stdin?: Readable;
  /** Output stream (default `process.stdout`, then guarded so only frames reach it). */
  stdout?: Writable;
  /** Largest accepted line in bytes (default 64 MiB); longer lines are answered `-32600`. */
  maxMessageBytes?: number;
  /** @deprecated use `maxMessageBytes` (the same limit; this name goes in the next release). */
  maxMessageSize?: number;
  /**
   * Largest single answer in bytes (default 64 MiB); a bigger one (or one that cannot be
   * serialised) is replaced by a `-32603` error for its id.
   */
  maxResponseBytes?: number;
  /** @deprecated use `maxResponseBytes` (the same limit; this name goes in the next release). */
  maxResponseSize?: number;
  /**
   * Largest answer to a 2025-03-26 batch in bytes, all elements together (default:
   * `maxMessageBytes`); the elements past it are answered `-32603` instead.
   */
  maxBatchResponseBytes?: number;
  /** @deprecated use `maxBatchResponseBytes` (the same limit; this name goes in the next release). */
  maxBatchResponseSize?: number;
  /**
   * Exit the process with code 0 when stdin ends (after in-flight work) and on SIGTERM / SIGINT.
   * Defaults to true when serving the process's own stdin.
   */
  exitProcess?: boolean;
  /**
   * When exiting (`exitProcess`) after stdin ended or a signal, the longest wait in ms for the
   * requests in flight to return (cancelled first, on a signal) and for the client to take our
   * output (default 2 000). The process exits 0 at the latest then, so neither a stuck handler
   * nor a client that stopped reading can keep it alive; each request still running is logged,
   * and a last `shutdown` line says how the shutdown ended (docs/stdio.md).
   */
  shutdownGraceMs?: number;
  /**
   * Continue a session another process served (from its `connection.snapshot()`): the client
   * is past its handshake, keeps its log level and subscriptions, and its open
   * `subscriptions/listen` requests go on without a second acknowledgement. Default: none.
   */
  restore?: SessionSnapshot;
  /**
   * Declare `listChanged: true` for every list the app serves, and, when continuing a session
   * (`restore`), tell the client at start that its lists may have changed: for a server that is
   * replaced under its client. Default false.
   */
  announceListChanges?: boolean;
  /**
   * Called with the session's snapshot each time a message changed it (a handshake, a log level,
   * a subscription, a listen opened or cancelled), to hand to the next process. Default: none.
   */
  onSnapshot?: (snapshot: SessionSnapshot | undefined) => void;
  /**
   * Who the process's caller is. stdio has no OAuth: its credentials come from the environment
   * (authorization spec, "Protocol Requirements"), so this is asked once at start, e.g. from a
   * token in an environment variable; the same guards and scopes then apply as over HTTP.
   * Default: anonymous.
   *
   * @example
   * serveStdio(app, { auth: () => ({ subject: process.env.USER ?? 'local', scopes: ['notes:read', 'notes:write'] }) });
   */
  auth?: () => AuthInfo | undefined;
}

/** A running stdio server. */
export interface StdioServer {
  /**
   * Resolves when input has ended and every in-flight request has been answered (open
   * `subscriptions/listen` requests end with the input).
   */
  readonly closed: Promise<void>;
  /** Stops reading, cancels in-flight requests and releases the streams. */
  close(): Promise<void>;
}

/** The rule and the default of every option of `serveStdio`, checked once at start (docs/stdio.md lists them). */
export const STDIO_OPTIONS = {
  stdin: { type: 'object', methods: ['on'], defaultText: 'process.stdin' },
  stdout: { type: 'object', methods: ['write'], defaultText: 'process.stdout' },
  maxMessageBytes: { type: 'integer', min: 1, default: 64 * 1024 * 1024 },
  maxMessageSize: { alias: 'maxMessageBytes' },
  maxResponseBytes: { type: 'integer', min: 1, default: DEFAULT_MAX_RESPONSE_BYTES },
  maxResponseSize: { alias: 'maxResponseBytes' },
  maxBatchResponseBytes: { type: 'integer', min: 1, defaultText: 'maxMessageBytes' },
  maxBatchResponseSize: { alias: 'maxBatchResponseBytes' },
  exitProcess: { type: 'boolean', defaultText: 'true when serving process.stdin' },
  shutdownGraceMs: duration({ min: 0, default: 2_000 }),
  restore: { type: 'object', defaultText: 'none' },
  announceListChanges: { type: 'boolean', default: false },
  onSnapshot: { type: 'function', defaultText: 'none' },
  auth: { type: 'function', defaultText: 'anonymous' },
} as const satisfies OptionTable<StdioOptions>;
const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/** How a shutdown ended, in its log line. */
type ShutdownEnd = 'idle' | 'drained' | 'grace expired' | 'second signal';

/**
 * Serves an app over stdio: newline-delimited JSON-RPC on stdin/stdout (transports, "stdio").
 * Logs go to stderr; a stray `console.log` is redirected there too.
 *
 * @example
 * const app = createApp({ name: 'notes', version: '1.0.0', providers: [NotesTools] });
 * serveStdio(app);
 */
export function serveStdio(app: McpApp, given: StdioOptions = {}): StdioServer {
  assertApp('serveStdio', app);
  // The logger first: reading the options may warn (a deprecated name), and stdout carries the protocol.
  let logger = app.logger;
  if (writesToStdout(logger)) {
    logger = createLogger({ level: app.logger.level, name: app.info.name });
    logger.warn('the app logger writes to stdout, which carries the protocol over stdio; logging to stderr instead');
  }
  const options = readOptions(STDIO_OPTIONS, given, {
    label: 'serveStdio',
    fail: optionTypeError,
    warn: (message) => logger.warn(message),
  });
  const input = options.stdin ?? process.stdin;
  const ownProcess = options.stdout === undefined;
  const exitProcess = options.exitProcess ?? input === process.stdin;
  const guard = ownProcess ? guardStdout() : undefined;
  const output = options.stdout;
  const writeRaw = guard ? guard.write : (text: string, done?: () => void) => output!.write(text, done);
  const outputStream: Writable = output ?? process.stdout;

  const auth = options.auth?.();
  const connection = app.connect(auth ? { kind: 'stdio', auth } : { kind: 'stdio' }, {
    logger,
    restore: options.restore,
    announceListChanges: options.announceListChanges,
  });
  // Reported only when it changed: a JSON comparison per message, paid only by those who ask.
  const onSnapshot = options.onSnapshot;
  let lastSnapshot = onSnapshot === undefined ? '' : JSON.stringify(connection.snapshot() ?? null);
  const reportSnapshot = (): void => {
    const snapshot = connection.snapshot();
    const text = JSON.stringify(snapshot ?? null);
    if (text === lastSnapshot) return;
    lastSnapshot = text;
    onSnapshot!(snapshot);
  };
  const maxMessageSize = options.maxMessageBytes;
  const reader = new LineReader(maxMessageSize);
  let stopped = false;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));

  // The line reader bounds each message; the channel runs them, paces and batches the output
  // (one write per tick: answers that finish together leave in one syscall) and stops reading
  // while the client does not drain it.
  // Request-related messages (progress …) go out through the channel, in order, before the
  // answer. One options object for every message.
  // maxAnswerBytes: an answer over the bound is its error already when its request line is written.
  const receiveOptions = { send: (message: JsonRpcMessage) => channel.send(message), maxAnswerBytes: options.maxResponseBytes };
  const channel = new MessageChannel({
    dispatch: (text) => {
      const read = readBody(text);
      return read.ok ? app.dispatcher.handle(read.body, connection, receiveOptions) : Promise.resolve(read.response);
    },
    write: (texts) => writeRaw(texts.length === 1 ? `${texts[0]}\n` : `${texts.join('\n')}\n`),
    drained: (resume) => void outputStream.once('drain', resume),
    pauseInput: () => input.pause(),
    resumeInput: () => {
      if (!stopped) input.resume();
    },
    limits: { maxMessageBytes: options.maxResponseBytes, maxBatchBytes: options.maxBatchResponseBytes ?? maxMessageSize },
    logger,
    // A listen opens (or a cancellation ends one) before its answer; other changes show once answered.
    onActivity: onSnapshot === undefined ? undefined : reportSnapshot,
  });
  connection.setOutbound(receiveOptions.send);

  const onEvent = (event: LineEvent): void => {
    if (event.kind === 'oversized') channel.refuseOversized(maxMessageSize);
    else channel.receive(event.text);
  };

  const onData = (chunk: Buffer | string): void => reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk, onEvent);
  const onEnd = (): void => {
    reader.end(onEvent);
    // No cancellation can come for a listen any more, so it would hold the shutdown forever.
    connection.endListens();
    if (channel.pending === 0) finish();
    else {
      void channel.idle().then(finish);
      // The requests in flight get the grace period to answer; it also bounds a handler that never returns.
      if (exitProcess) exitAfterGrace('end of input');
    }
  };
  // SIGTERM / SIGINT: stop reading and cancel what is in flight; exit once the cancelled
  // handlers have returned and the client has our output, or when the grace period ends.
  const onSignal = (signal: NodeJS.Signals): void => {
    connection.close();
    stop();
    exitAfterGrace(signal);
    for (const name of SIGNALS) process.prependListener(name, onSecondSignal);
  };

  const listeners: Array<[NodeJS.EventEmitter, string, Parameters<NodeJS.EventEmitter['on']>[1]]> = [
    [input, 'data', onData],
    [input, 'end', onEnd],
    [input, 'error', onEnd],
  ];
  if (exitProcess) listeners.push([process, 'SIGTERM', onSignal], [process, 'SIGINT', onSignal]);

  function detach(): void {
    for (const [emitter, event, listener] of listeners) emitter.off(event, listener);
  }

  function stop(): void {
    if (stopped) return;
    stopped = true;
    detach();
    input.pause();
  }

  function finish(): void {
    stop();
    // Nothing is in flight: release the connection (its app-event subscription) before saying so.
    connection.close();
    resolveClosed();
    // setImmediate lets `closed` handlers run first.
    if (exitProcess) setImmediate(exitAfterGrace, 'end of input');
  }

  let exitTimer: NodeJS.Timeout | undefined;
  // What began the shutdown and how many requests were in flight then.
  let began: { trigger: NodeJS.Signals | 'end of input'; pending: number } | undefined;
  // The shutdown's one log line, written as the process exits.
  const logShutdown = (ended: ShutdownEnd, abandoned: number): void => {
    const fields = { trigger: began?.trigger, ended, pending: began?.pending, abandoned };
    if (ended === 'idle' || ended === 'drained') logger.info(fields, 'shutdown');
    else logger.warn(fields, 'shutdown');
  };
  function exitAfterGrace(trigger: NodeJS.Signals | 'end of input'): void {
    if (exitTimer !== undefined) return;
    began = { trigger, pending: channel.pending };
    // Not unref'd: a client that stopped reading must not keep the process alive past it.
    exitTimer = setTimeout(() => {
      const running = connection.running();
      logAbandoned(logger, running);
      // Answers finished this tick are still queued for the next one, which exit would not wait for.
      channel.flush();
      logShutdown('grace expired', running.length);
      process.exit(0);
    }, options.shutdownGraceMs);
    // The empty write's callback fires once everything queued before it reached the client.
    const idle = began.pending === 0;
    const flushThenExit = (): void => {
      channel.flush();
      writeRaw('', () => {
        logShutdown(idle ? 'idle' : 'drained', 0);
        process.exit(0);
      });
    };
    void channel.idle().then(flushThenExit);
  }

  // A second signal during the grace period ends the process at once, by that signal; its line says so first.
  function onSecondSignal(signal: NodeJS.Signals): void {
    for (const name of SIGNALS) process.off(name, onSecondSignal);
    const running = connection.running();
    logAbandoned(logger, running);
    logShutdown('second signal', running.length);
    // First in line, so the listeners after it see the signal as before: the log's own (createLogger)
    // writes the log out, then, alone, gives the signal its default action back. With none, that is ours to do.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  }

  for (const [emitter, event, listener] of listeners) emitter.on(event, listener);
  // A continued session learns first that the server it talks to may serve other lists now.
  if (options.restore !== undefined && options.announceListChanges) connection.announceListChanges();
  input.resume();

  return {
    closed,
    close: async () => {
      channel.close();
      connection.close();
      stop();
      guard?.restore();
      resolveClosed();
    },
  };
}
