import type { LogDestination } from './log-destination';

interface FatalLogger {
  fatal(bindings: object, message: string): void;
}

interface Entry {
  logger: WeakRef<FatalLogger>;
  destination: WeakRef<LogDestination>;
}

// Weak: a logger nobody uses any more may go; one with lines waiting is held by its timer.
const entries: Entry[] = [];
let installed = false;

/**
 * Makes sure what `destination` buffers is written however the process ends: on exit, on
 * SIGTERM / SIGINT, and on a crash (an uncaught exception or unhandled rejection), which `logger`
 * logs at `fatal` first. The hooks change no behaviour: a signal nobody else listens to still
 * ends the process, and a crash still exits 1 with Node's own report.
 */
export function flushOnExit(logger: FatalLogger, destination: LogDestination): void {
  for (let i = entries.length - 1; i >= 0; i--) if (entries[i].destination.deref() === undefined) entries.splice(i, 1);
  entries.push({ logger: new WeakRef(logger), destination: new WeakRef(destination) });
  if (installed) return;
  installed = true;
  process.on('exit', flushLogs);
  process.on('uncaughtExceptionMonitor', onCrash);
  // In a worker these never fire (workers receive no signals; their exit still flushes), and
  // asking whether this is one would load node:worker_threads, 2 ms of a server's cold start.
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/**
 * Writes every buffered log line of the loggers `createLogger` made, now. Exit, signals and
 * crashes already do it; call it before ending the process some other way (`process.abort()`).
 *
 * @example
 * flushLogs();
 * process.abort();
 */
export function flushLogs(): void {
  for (const entry of entries) {
    try {
      entry.destination.deref()?.flushSync();
    } catch {
      // Nothing left to tell: the log itself is what failed.
    }
  }
}

function onSignal(signal: NodeJS.Signals): void {
  flushLogs();
  // Alone, this listener took the signal's default away: give it back and let it happen.
  if (process.listenerCount(signal) === 1) {
    process.removeListener(signal, onSignal);
    process.kill(process.pid, signal);
  }
}

function onCrash(error: unknown, origin: string): void {
  // With an uncaughtException handler the app decides whether this is fatal; then only flush.
  const handled = process.listenerCount('uncaughtException') > 0 || process.hasUncaughtExceptionCaptureCallback();
  if (!handled) {
    const logger = entries.map((entry) => entry.logger.deref()).find((candidate) => candidate !== undefined);
    try {
      logger?.fatal({ err: error }, origin === 'unhandledRejection' ? 'unhandled promise rejection; exiting' : 'uncaught exception; exiting');
    } catch {
      // A logger that throws must not hide the original error, which Node reports next.
    }
  }
  flushLogs();
}
