import { hostname } from 'node:os';
import type pino from 'pino';
import { FAST_CHINDINGS, FAST_DESTINATION, markFastLines } from './fast-destination';
import { plainJson } from './plain-json';
import type { LogDestination } from './log-destination';
import { LOG_REDACT_PATHS, REDACTED, REDACTED_KEYS } from './redaction';

// pino's default levels: what a line at each needs, known without loading pino.
const LEVEL_VALUES: Readonly<Record<string, number>> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };
type LevelName = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

interface RootOptions {
  name: string | undefined;
  level: string;
  destination: LogDestination;
}

function loadPino(): typeof pino {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('pino') as typeof pino;
}

/** pino's text of child bindings, when every value is one it writes as plain JSON; undefined otherwise. */
function scalarChindings(bindings: Record<string, unknown>): string | undefined {
  let text = '';
  for (const key of Object.keys(bindings)) {
    const value = bindings[key];
    // pino gives these keys meaning (`err` has a serializer) or skips them; a credential's key is pino's to redact.
    if (key === 'level' || key === 'serializers' || key === 'formatters' || key === 'customLevels' || key === 'err' || REDACTED_KEYS.has(key)) return undefined;
    if (value === undefined) continue;
    const json = plainJson(value);
    if (json === undefined) return undefined;
    text += `,"${key}":${json}`;
  }
  return text;
}

/**
 * The logger `createLogger` returns: pino, loaded when the first line that needs it is written
 * (about 10 ms of a stdio server's cold start, which at `info` usually writes only request lines,
 * built without pino). Until then it answers levels and makes children itself; once pino is
 * loaded, every call goes to the pino logger behind it. Its lines are byte for byte pino's.
 */
export class DeferredLogger {
  private pinoLogger: pino.Logger | undefined = undefined;
  /** A level set on this logger itself; a child without one follows its parent, as in pino. */
  private ownLevel: string | undefined;
  /** pino's bindings text of this logger (`,"pid":…,"hostname":…,"name":…` for the root). */
  [FAST_CHINDINGS]: string;
  readonly [FAST_DESTINATION]: LogDestination;

  private constructor(
    private readonly root: RootOptions,
    private readonly parent: DeferredLogger | undefined,
    private readonly ownBindings: Record<string, unknown> | undefined,
    chindings: string,
    level: string | undefined,
  ) {
    this[FAST_CHINDINGS] = chindings;
    this[FAST_DESTINATION] = root.destination;
    this.ownLevel = level;
  }

  /** @internal The root logger of `createLogger`; an unknown level loads pino, which rejects it. */
  static create(root: RootOptions): DeferredLogger {
    const name = root.name === undefined ? '' : `,"name":${JSON.stringify(root.name)}`;
    const logger = new DeferredLogger(root, undefined, undefined, `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}${name}`, 'info');
    logger.level = root.level;
    return logger;
  }

  /** The pino logger behind this one, loaded now if it was not yet. */
  pino(): pino.Logger {
    if (this.pinoLogger === undefined) {
      const made =
        this.parent === undefined
          ? loadPino()({ name: this.root.name, level: this.ownLevel, redact: { paths: [...LOG_REDACT_PATHS], censor: REDACTED } }, this.root.destination)
          : this.parent.pino().child(this.ownBindings ?? {});
      if (this.parent === undefined) markFastLines(made, this.root.destination);
      // A child of pino follows its parent's level until it is given its own, as this one did.
      else if (this.ownLevel !== undefined) made.level = this.ownLevel;
      this.pinoLogger = made;
    }
    return this.pinoLogger;
  }

  /** The threshold in force: this logger's own, else its parent's (pino's default levels). */
  private threshold(): number {
    if (this.pinoLogger !== undefined) return this.pinoLogger.levelVal;
    return this.ownLevel !== undefined ? LEVEL_VALUES[this.ownLevel] : this.parent!.threshold();
  }

  get level(): string {
    if (this.pinoLogger !== undefined) return this.pinoLogger.level;
    return this.ownLevel ?? this.parent!.level;
  }

  set level(level: string) {
    if (this.pinoLogger !== undefined || !Object.hasOwn(LEVEL_VALUES, level)) {
      // pino knows custom levels and rejects unknown ones with its own message.
      this.pino().level = level;
      this.ownLevel = this.pinoLogger!.level;
      return;
    }
    this.ownLevel = level;
  }

  /** pino's number of the level in force. */
  get levelVal(): number {
    return this.threshold();
  }

  isLevelEnabled(level: string): boolean {
    if (this.pinoLogger !== undefined || !Object.hasOwn(LEVEL_VALUES, level)) return this.pino().isLevelEnabled(level);
    return LEVEL_VALUES[level] >= this.threshold();
  }

  /**
   * A child with `bindings` on its lines. With options (serializers, redaction, a level …) it is
   * a pino child; its request lines go through pino wherever those options touch them.
   */
  child(bindings: Record<string, unknown>, options?: pino.ChildLoggerOptions): DeferredLogger | pino.Logger {
    const plain = options === undefined || Object.keys(options).length === 0;
    // `requestLine` reads a pino child's serializers and redaction, and leaves the lines they
    // touch to pino.
    if (!plain || typeof bindings !== 'object' || bindings === null) return this.pino().child(bindings, options);
    // Deferred even when this logger's pino is loaded: a child per HTTP request (Fastify's
    // request.log) then costs a string, and makes its pino child only for a line that needs one.
    const chindings = scalarChindings(bindings);
    if (chindings === undefined) return this.pino().child(bindings);
    return new DeferredLogger(this.root, this, { ...bindings }, this[FAST_CHINDINGS] + chindings, undefined);
  }

  private line(level: LevelName, args: unknown[]): void {
    if (this.pinoLogger === undefined && LEVEL_VALUES[level] < this.threshold()) return;
    (this.pino()[level] as (...args: unknown[]) => void)(...args);
  }

  fatal(...args: unknown[]): void {
    this.line('fatal', args);
  }

  error(...args: unknown[]): void {
    this.line('error', args);
  }

  warn(...args: unknown[]): void {
    this.line('warn', args);
  }

  info(...args: unknown[]): void {
    this.line('info', args);
  }

  debug(...args: unknown[]): void {
    this.line('debug', args);
  }

  trace(...args: unknown[]): void {
    this.line('trace', args);
  }

  /** Writes nothing, at any level (pino's `silent`). */
  silent(): void {}

  /** Writes what waits now, then calls `done` (pino's `flush`). */
  flush(done?: (error?: Error) => void): void {
    this.root.destination.flush(done);
  }

  // The rest of pino's logger API: rare, so it loads pino.

  bindings(): pino.Bindings {
    return this.pino().bindings();
  }

  setBindings(bindings: pino.Bindings): void {
    this.pino().setBindings(bindings);
    // The fast path's copy of the bindings text must follow: pino keeps it under its own symbol.
    this[FAST_CHINDINGS] = (this.pinoLogger as unknown as Record<symbol, string>)[loadPino().symbols.chindingsSym];
  }

  get levels(): pino.LevelMapping {
    return this.pino().levels;
  }

  get version(): string {
    return this.pino().version;
  }

  on(event: string, listener: (...args: unknown[]) => void): this {
    this.pino().on(event as 'level-change', listener as never);
    return this;
  }

  once(event: string, listener: (...args: unknown[]) => void): this {
    this.pino().once(event as 'level-change', listener as never);
    return this;
  }

  off(event: string, listener: (...args: unknown[]) => void): this {
    this.pino().off(event as 'level-change', listener as never);
    return this;
  }

  removeListener(event: string, listener: (...args: unknown[]) => void): this {
    this.pino().removeListener(event as 'level-change', listener as never);
    return this;
  }

  emit(event: string, ...args: unknown[]): boolean {
    return this.pino().emit(event as 'level-change', ...(args as never[]));
  }
}
