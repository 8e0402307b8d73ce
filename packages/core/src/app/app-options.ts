import type { Logger } from '../logging/logger';
import type { Constructor } from '../metadata/constructor';
import type { Implementation } from '../protocol/mcp-types';
import type { Provider } from '../scanner/scan-providers';

/** Options of `createApp`: the server's identity (`serverInfo`) and what it serves. */
export interface AppOptions extends Implementation {
  /** How to use this server, for the model (`InitializeResult.instructions`). */
  instructions?: string;
  /** Classes (or instances) whose methods carry `@Tool`, `@Resource`, `@ResourceTemplate`, `@Prompt`. */
  providers: readonly Provider[];
  /** Makes provider instances, e.g. from a DI container; defaults to `new Class()`. */
  resolve?: (type: Constructor) => unknown;
  /** The server's own logger; defaults to JSON lines on stderr at `LOG_LEVEL`. */
  logger?: Logger;
  /** Include tool arguments in the per-request log line (off: arguments may hold secrets). */
  logArguments?: boolean;
}
