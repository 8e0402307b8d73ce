import { hostname } from 'node:os';
import type pino from 'pino';
import { FAST_CHINDINGS, FAST_DESTINATION, markFastLines } from './fast-destination';
import type { LogDestination } from './log-destination';

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

/** pino's serialisation of child bindings, for the values it writes as plain JSON; undefined for others. */
function scalarChindings(bindings: Record<string, unknown>): string | undefined {
  let text = '';
  for (const key of Object.keys(bindings)) {
    const value = bindings[key];
    // pino gives these keys meaning (`err` has a serializer) or skips them.
    if (key === 'level' || key === 'serializers' || key === 'formatters' || key === 'customLevels' || key === 'err') return undefined;
    if (value === undefined) continue;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
    text += `,"${key}":${JSON.stringify(value)}`;
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
  private levelName: string;
  private levelValue: number;
  /** pino's bindings text of this logger (`,"pid":…,"hostname":…,"name":…` for the root). */
  readonly [FAST_CHINDINGS]: string;
  readonly [FAST_DESTINATION]: LogDestination;

  private constructor(
    private readonly root: RootOptions,
    private readonly parent: DeferredLogger | undefined,
    private readonly bindings: Record<string, unknown> | undefined,
    chindings: string,
    level: string,
  ) {
    this[FAST_CHINDINGS] = chindings;
    this[FAST_DESTINATION] = root.destination;
    this.levelName = level;
    this.levelValue = LEVEL_VALUES[level];
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
          ? loadPino()({ name: this.root.name, level: this.levelName }, this.root.destination)
          : this.parent.pino().child(this.bindings ?? {});
      if (this.parent === undefined) markFastLines(made, this.root.destination);
      if (made.level !== this.levelName) made.level = this.levelName;
      this.pinoLogger = made;
    }
    return this.pinoLogger;
  }

  get level(): string {
    return this.pinoLogger?.level ?? this.levelName;
  }

  set level(level: string) {
    if (this.pinoLogger !== undefined || !(level in LEVEL_VALUES)) {
      // pino knows custom levels and rejects unknown ones with its own message.
      this.pino().level = level;
      this.levelName = this.pinoLogger!.level;
      this.levelValue = this.pinoLogger!.levelVal;
      return;
    }
    this.levelName = level;
    this.levelValue = LEVEL_VALUES[level];
  }

  isLevelEnabled(level: string): boolean {
    if (this.pinoLogger !== undefined || !(level in LEVEL_VALUES)) return this.pino().isLevelEnabled(level);
    return LEVEL_VALUES[level] >= this.levelValue;
  }

  /** A child with `bindings` on its lines; with options (serializers, a level …) a pino child. */
  child(bindings: Record<string, unknown>, options?: pino.ChildLoggerOptions): DeferredLogger | pino.Logger {
    const plain = options === undefined || Object.keys(options).length === 0;
    const chindings = this.pinoLogger === undefined && plain ? scalarChindings(bindings) : undefined;
    if (chindings === undefined) return this.pino().child(bindings, options);
    return new DeferredLogger(this.root, this, { ...bindings }, this[FAST_CHINDINGS] + chindings, this.levelName);
  }

  private line(level: LevelName, args: unknown[]): void {
    if (this.pinoLogger === undefined && LEVEL_VALUES[level] < this.levelValue) return;
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
}
