import type { McpApp } from './mcp-app';

/**
 * True when the app logs through the logger `createApp` made for it (at `LOG_LEVEL`, else
 * `info`) because it was given none: a client in the same process, such as the test client, may
 * then connect with a level of its own. False when the app's author chose the logger.
 *
 * @example
 * const logger = hasDefaultLogger(app) && !process.env.LOG_LEVEL ? quieter(app.logger) : undefined;
 */
export function hasDefaultLogger(app: McpApp): boolean {
  // Read from the app, not from this copy of core: the app may come from another installed copy.
  return (app.settings as { defaultLogger?: unknown }).defaultLogger === true;
}
