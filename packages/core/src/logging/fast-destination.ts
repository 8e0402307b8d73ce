import type pino from 'pino';
import type { LogDestination } from './log-destination';

/**
 * Set on a logger made by createLogger (children inherit it through their prototype): where its
 * lines go, for loggers whose output mcpkit knows byte for byte.
 */
export const FAST_DESTINATION = Symbol.for('mcpkit.logging.fastDestination');

/**
 * Set on a logger that knows its own bindings text without pino (`createLogger`'s, before pino
 * has loaded): what pino keeps under its private chindings symbol.
 */
export const FAST_CHINDINGS = Symbol.for('mcpkit.logging.fastChindings');

/** @internal Lets `requestLine` write `logger`'s own lines (and its children's) itself. */
export function markFastLines(logger: pino.Logger, destination: LogDestination): void {
  Object.defineProperty(logger, FAST_DESTINATION, { value: destination });
}
