import type { ClientCapabilities, Implementation } from '@mcpkit/core';
import { DEFAULT_MAX_RESPONSE_BYTES, duration, type OptionTable } from '@mcpkit/core/transport';
import type { McpClientError } from './client-error';
import type { ServerRequestHandlers } from './server-requests';

/** Options of `McpClient.connect`. Each option's rule and default are in `CLIENT_OPTIONS` below: a new option goes in both. */
export interface ClientOptions {
  /** Who the client is (`clientInfo`; default `{ name: 'mcpkit-client', version: '0.1.0' }`). */
  clientInfo?: Implementation;
  /**
   * The protocol era: `auto` (default) asks `server/discover` first and falls back to
   * `initialize` (docs/client.md says exactly when); `modern` speaks only 2026-07-28 (no
   * handshake); `legacy` only the `initialize` revisions.
   */
  era?: 'auto' | 'legacy' | 'modern';
  /** The revision to ask for in the era opened (default: the newest this client speaks in it). */
  protocolVersion?: string;
  /**
   * Answers to the server's requests, by method (`elicitation/create`, `sampling/createMessage`,
   * `roots/list`; `ping` is answered by the client): the legacy era's server requests and the
   * modern era's input-required questions both come here. Each handler given declares its
   * capability; anything else the server asks is answered `-32601`. Default: none.
   */
  handlers?: ServerRequestHandlers;
  /**
   * Sub-flags of the capabilities the handlers declare (`{ elicitation: { form: {}, url: {} } }`),
   * `experimental` and `extensions`. A capability without its handler is not declared. Default: none.
   */
  capabilities?: ClientCapabilities;
  /** Longest wait for an answer in ms (default 60 000); then the request is cancelled and fails. */
  timeoutMs?: number;
  /** Restart a request's timeout whenever its progress arrives (default false). */
  resetTimeoutOnProgress?: boolean;
  /** With `resetTimeoutOnProgress`: the longest a request may last however much progress comes, in ms (default 600 000). */
  maxTotalTimeoutMs?: number;
  /** Longest wait in ms for the server's answer to `server/discover` or `initialize` (default 10 000). */
  openTimeoutMs?: number;
  /** Requests that may wait for their answers at once (default 1 000); one more fails at once. */
  maxPendingRequests?: number;
  /** Requests of the server answered at once (default 64); one more is answered `-32600`. Also the most questions one 2026-07-28 input-required result may ask. */
  maxServerRequests?: number;
  /** Largest message in either direction, in UTF-8 bytes (default 64 MiB): a stdio line, an HTTP body, an SSE event. */
  maxMessageBytes?: number;
  /** Input-required rounds one 2026-07-28 request may take (default 10). */
  maxInputRounds?: number;
  /** HTTP: attempts to resume a broken stream or reopen the GET stream (default 3). */
  maxReconnects?: number;
  /** HTTP: the wait before a reconnection when the server named none, doubled each time, in ms (default 1 000). */
  reconnectDelayMs?: number;
  /** stdio: after closing the child's stdin, the wait in ms before SIGTERM, and as long again before SIGKILL (default 2 000). */
  shutdownGraceMs?: number;
  /** Told of what the server sent that the client cannot read and that fails no request (a stray answer), and of a callback of yours that threw (a listener, `onProgress`, `onClose`). What `onError` itself throws is dropped. */
  onError?: (error: McpClientError) => void;
}

/** The rule and default of every option of `McpClient.connect`, read once by `readOptions`. */
export const CLIENT_OPTIONS = {
  clientInfo: { type: 'object', defaultText: "{ name: 'mcpkit-client', version: '0.1.0' }" },
  era: { type: 'enum', values: ['auto', 'legacy', 'modern'], default: 'auto' },
  protocolVersion: { type: 'string', nonEmpty: true, defaultText: 'the newest of the era' },
  handlers: { type: 'object', defaultText: 'none' },
  capabilities: { type: 'object', defaultText: 'none' },
  timeoutMs: duration({ min: 1, default: 60_000 }),
  resetTimeoutOnProgress: { type: 'boolean', default: false },
  maxTotalTimeoutMs: duration({ min: 1, default: 600_000 }),
  openTimeoutMs: duration({ min: 1, default: 10_000 }),
  maxPendingRequests: { type: 'integer', min: 1, default: 1_000 },
  maxServerRequests: { type: 'integer', min: 1, default: 64 },
  maxMessageBytes: { type: 'integer', min: 1, default: DEFAULT_MAX_RESPONSE_BYTES },
  maxInputRounds: { type: 'integer', min: 1, default: 10 },
  maxReconnects: { type: 'integer', min: 0, default: 3 },
  reconnectDelayMs: duration({ min: 0, default: 1_000 }),
  shutdownGraceMs: duration({ min: 0, default: 2_000 }),
  onError: { type: 'function', defaultText: 'none' },
} as const satisfies OptionTable<ClientOptions>;
