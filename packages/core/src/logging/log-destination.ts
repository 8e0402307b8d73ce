import { unrefTimer } from '../types/unref-timer';
import type * as NodeFs from 'node:fs';

// Loaded at the first write, not at import: a Worker (the fetch binding) imports core without
// `node:fs`, and one that never logs never needs it.
let fs: typeof NodeFs | undefined;
function nodeFs(): typeof NodeFs {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  fs ??= require('node:fs') as typeof NodeFs;
  return fs;
}

/** Options of `LogDestination`; every size counts characters of JSON lines (about bytes). */
export interface LogDestinationOptions {
  /** File descriptor to write to (default 2, stderr). */
  fd?: number;
  /** Write as soon as this many characters wait (default 16 384); 0 writes every line at once. */
  bufferSize?: number;
  /** The longest a line waits in the buffer before it is written, in ms (default 100). */
  flushIntervalMs?: number;
  /**
   * The most characters held while the file descriptor takes nothing (a pipe nobody reads);
   * lines beyond are dropped, counted, and reported in a line once writing works again
   * (default 4 MiB).
   */
  maxBufferSize?: number;
}

const DEFAULT_BUFFER_SIZE = 16 * 1024;
const DEFAULT_FLUSH_INTERVAL_MS = 100;
const DEFAULT_MAX_BUFFER_SIZE = 4 * 1024 * 1024;
// Holds a default batch (16 KiB, plus the line that crossed it) encoded, whatever its characters.
const SCRATCH_BYTES = 64 * 1024;
// How long a final `flushSync` keeps retrying a full pipe before it gives the rest up: exiting
// must not hang on a reader that went away.
const FLUSH_SYNC_LIMIT_MS = 1_000;
const FLUSH_SYNC_PAUSE_MS = 5;
const pauseCell = new Int32Array(new SharedArrayBuffer(4));

/**
 * Where the default logger's JSON lines go: buffered in memory and written with one `write(2)`
 * per batch, so a line costs a string append instead of a system call. A batch leaves when it
 * reaches `bufferSize` or after `flushIntervalMs`, whichever is first; `flushSync` writes
 * everything now (pino calls it after `fatal`, and the exit hooks on exit, signals and crashes).
 * A full, non-blocking pipe never blocks the server: what it does not take waits (bounded) and
 * is retried.
 *
 * @example
 * const logger = pino({ level: 'info' }, new LogDestination({ fd: 2 }));
 */
export class LogDestination {
  readonly fd: number;
  private readonly bufferSize: number;
  private readonly flushIntervalMs: number;
  private readonly maxBufferSize: number;
  private lines: string[] = [];
  private length = 0;
  // Bytes a write left over (the pipe was full); they go out before any newer line.
  private carry: Buffer | undefined = undefined;
  private scratch: Buffer | undefined = undefined;
  private timer: NodeJS.Timeout | undefined = undefined;
  // Dropped since the last report, and in all.
  private droppedLines = 0;
  private droppedTotal = 0;
  private broken = false;
  private stalled = false;
  private readonly onTimer = (): void => {
    this.timer = undefined;
    this.writeOnce();
  };

  constructor(options: LogDestinationOptions = {}) {
    this.fd = options.fd ?? 2;
    this.bufferSize = options.bufferSize ?? DEFAULT_BUFFER_SIZE;
    this.flushIntervalMs = options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
    this.maxBufferSize = options.maxBufferSize ?? DEFAULT_MAX_BUFFER_SIZE;
  }

  // A pipe inherited as stdout or stderr stays blocking until Node opens its stream (which sets
  // it non-blocking): without this, a write to a full pipe (a client that reads no stderr) would
  // block the whole process instead of returning EAGAIN to the buffer. Opened before the first
  // write, not at construction: opening stderr on a file loads node:stream's whole family, some
  // milliseconds of a cold start, and the first batch waits `flushIntervalMs` anyway.
  private opened = false;
  private open(): void {
    this.opened = true;
    if (this.fd === 2) void process.stderr;
    else if (this.fd === 1) void process.stdout;
  }

  /** Lines dropped so far because the buffer was full. */
  get dropped(): number {
    return this.droppedTotal;
  }

  /** Characters (about bytes) waiting to be written. */
  get pending(): number {
    return this.length + (this.carry?.length ?? 0);
  }

  /** Queues one line (pino calls this); never throws and never blocks on a full pipe. */
  write(line: string): boolean {
    if (this.broken) return true;
    if (this.pending + line.length > this.maxBufferSize) {
      this.droppedLines++;
      this.droppedTotal++;
      this.schedule();
      return true;
    }
    this.lines.push(line);
    this.length += line.length;
    if (this.length >= this.bufferSize && this.carry === undefined) this.writeOnce();
    else this.schedule();
    return true;
  }

  /** Writes what waits now (one attempt), then calls `done` (pino's `logger.flush(cb)`). */
  flush(done?: (error?: Error) => void): void {
    this.writeOnce();
    done?.();
  }

  /**
   * Writes everything that waits before returning, retrying a full pipe for up to a second;
   * for exit paths, where no later turn of the event loop will come.
   */
  flushSync(): void {
    // Once a reader failed to take the lines for a whole second, later calls (a signal, then
    // exit) make one attempt each: the limit holds for the whole exit, not per call.
    const deadline = this.stalled ? 0 : Date.now() + FLUSH_SYNC_LIMIT_MS;
    while (!this.broken && (this.pending > 0 || this.droppedLines > 0) && !this.writeOnce()) {
      if (Date.now() >= deadline) {
        this.stalled = true;
        break;
      }
      Atomics.wait(pauseCell, 0, 0, FLUSH_SYNC_PAUSE_MS);
    }
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    // Never what keeps a process alive: the exit hook writes what is left.
    this.timer = unrefTimer(setTimeout(this.onTimer, this.flushIntervalMs));
  }

  /** One `write(2)` of everything waiting; true when nothing is left. */
  private writeOnce(): boolean {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.broken) return true;
    if (this.droppedLines > 0 && this.carry === undefined) this.reportDropped();
    if (this.length === 0 && this.carry === undefined) return true;
    const bytes = this.encode(
      this.carry === undefined ? this.joined() : this.length === 0 ? this.carry : Buffer.concat([this.carry, Buffer.from(this.joined())]),
    );
    this.lines = [];
    this.length = 0;
    this.carry = undefined;
    let written: number;
    try {
      if (!this.opened) this.open();
      written = nodeFs().writeSync(this.fd, bytes);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN' || code === 'EWOULDBLOCK') written = 0;
      else {
        // The reader is gone (EPIPE) or the descriptor is unusable: logging must not take the
        // server down with it, so it stops.
        this.broken = true;
        return true;
      }
    }
    if (written >= bytes.length) return true;
    // A copy: the scratch buffer the bytes may sit in takes the next batch.
    this.carry = Buffer.from(bytes.subarray(written));
    this.schedule();
    return false;
  }

  private joined(): string {
    return this.lines.length === 1 ? this.lines[0] : this.lines.join('');
  }

  /**
   * A batch's bytes, encoded once into a buffer kept for the next batch when it surely fits (a
   * UTF-16 unit is at most three bytes): fs would encode the text into a new buffer of its own,
   * and counting the bytes written against the text's length took a second pass over it.
   */
  private encode(data: string | Buffer): Buffer {
    if (typeof data !== 'string') return data;
    if (data.length * 3 > SCRATCH_BYTES) return Buffer.from(data);
    this.scratch ??= Buffer.allocUnsafe(SCRATCH_BYTES);
    return this.scratch.subarray(0, this.scratch.write(data));
  }

  private reportDropped(): void {
    const count = this.droppedLines;
    this.droppedLines = 0;
    const line = `{"level":40,"time":${Date.now()},"msg":"${count} log line(s) dropped: the log destination did not take them in time"}\n`;
    this.lines.push(line);
    this.length += line.length;
  }
}
