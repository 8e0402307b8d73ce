import { type McpApp } from '@mcpkit/core';
import { DEFAULT_MAX_RESPONSE_BYTES, type EncodeLimits } from '@mcpkit/core/transport';
import { DEFAULT_MAX_EVENT_BYTES, DEFAULT_MAX_EVENT_BYTES_PER_SESSION, MemoryEventStore, type EventStore } from './event-store';
import { LOOPBACK_HOSTS } from './host-origin';
import { MemorySessionStore, type SessionStore } from './session-store';
import type { ResourceServerOptions } from './resource-server';
import type { EndpointRateLimitOptions } from './endpoint-rate-limit';
import type { ServerCardEndpointOptions } from './server-card-route';
import type { SessionRouter } from './session-router';

/** How a POST that carries a request is answered. */
export type ResponseMode = 'auto' | 'json' | 'sse';

/** Options of a Streamable HTTP endpoint: the `mcpkit` Fastify plugin, `serveHttp`, `createFetchHandler`. */
export interface McpHttpOptions {
  /** The app to serve. */
  app: McpApp;
  /** Path of the MCP endpoint (default `/mcp`). The plugin ignores Fastify's `prefix`… unless you register it inside a prefixed plugin. */
  path?: string;
  /** Handshake-era sessions with `Mcp-Session-Id` (default true); false serves every request on its own. */
  sessions?: boolean;
  /**
   * `auto` (default): JSON, unless the handler sends something before its result, which turns
   * the answer into an SSE stream; `json`: always JSON (related notifications are dropped);
   * `sse`: always a stream.
   */
  responseMode?: ResponseMode;
  /** Allowed `Host` values: hostnames (any port), `host:port`, or `*`. Default: loopback names. */
  allowedHosts?: readonly string[];
  /** Allowed `Origin` values besides origins on an allowed host: exact origins, or `*`. */
  allowedOrigins?: readonly string[];
  /** Largest accepted body in bytes (default 4 MiB); larger bodies get 413. */
  bodyLimit?: number;
  /**
   * After answering a request before its body was read (a `413`, a refused token …), how many
   * more bytes of the body are read and discarded before the connection closes (default 64
   * MiB), so that a client that sends its whole body before reading still reads the status.
   */
  maxDrainBytes?: number;
  /** The longest that reading goes on, in ms (default 10 000); then the connection closes anyway. */
  drainTimeoutMs?: number;
  /**
   * Most 2026-07-28 `subscriptions/listen` requests open at once on this endpoint, all clients
   * together (default 1 000): each holds its connection and its request until its client closes
   * it. Past it a listen is answered `503` with `Retry-After` until one ends.
   */
  maxListens?: number;
  /**
   * How long the requests of a session's POST stream run on once its reader is gone (the client
   * dropped the connection, or SSE polling ended it), in ms (default 300 000): a resumption
   * (`GET` with `Last-Event-ID`) within it keeps them, then they are cancelled (their
   * `ctx.signal` aborts).
   */
  detachedRequestTimeoutMs?: number;
  /**
   * Most requests that run on with no reader for their stream, all sessions together (default
   * 1 000): past it the longest detached are cancelled first, and one warn line is logged each
   * time the cap is reached.
   */
  maxDetachedRequests?: number;
  /** Most live sessions (default 10 000); at the cap the least recently used idle one is ended. */
  maxSessions?: number;
  /** A session unused this long is ended (default 30 minutes). */
  sessionIdleTimeoutMs?: number;
  /** Where sessions are remembered (default: in memory). */
  sessionStore?: SessionStore;
  /**
   * Carries a session's server→client messages and its client's answers between instances
   * (scale-out, with a shared `sessionStore` and `eventStore`; `@mcpkit/redis` makes all three).
   * Default: none, every session lives in this process.
   */
  router?: SessionRouter;
  /**
   * Where SSE events wait for resumption (default: a `MemoryEventStore` bounded by
   * `maxEventBytesPerSession` and `maxEventBytes`, oldest evicted first).
   */
  eventStore?: EventStore;
  /**
   * Bytes of SSE events the default store keeps per session for resumption (default 4 MiB); an
   * event bigger than this is sent but not kept. Also bounds what one stream buffers for a reader
   * (before its GET arrives, or unsent to a client that does not read).
   */
  maxEventBytesPerSession?: number;
  /** Bytes of SSE events the default store keeps over all sessions (default 256 MiB). */
  maxEventBytes?: number;
  /** Largest single answer in bytes (default 64 MiB); a bigger one becomes a `-32603` error for its id. */
  maxResponseSize?: number;
  /**
   * Largest answer to a 2025-03-26 batch, all elements together (default: `bodyLimit`, so a batch
   * answers no more than a client may send); each element past it is answered `-32603` for its id.
   */
  maxBatchResponseSize?: number;
  /** `retry` advice sent with the priming event, in ms (default 1 000). */
  retryMs?: number;
  /** Keep-alive comment interval on open streams, in ms (default 25 000; 0 disables). */
  keepAliveMs?: number;
  /** Whether GET opens the session's server-to-client stream (default true); false answers 405. */
  standaloneStream?: boolean;
  /**
   * Also serve the 2024-11-05 HTTP+SSE transport for old clients: GET `ssePath` opens the stream
   * (first event: `endpoint`), POST `messagesPath?sessionId=…` carries messages. Off by default.
   */
  legacySse?: boolean | { ssePath?: string; messagesPath?: string };
  /**
   * Make the endpoint an OAuth 2.1 resource server: Protected Resource Metadata, a verified
   * bearer token on every request (`ctx.auth`), `401` / `403` challenges. Default: none.
   */
  auth?: ResourceServerOptions;
  /**
   * A limit on requests to the MCP endpoint (and the `legacySse` paths), per caller (its token's
   * subject, else its address), checked before the body is read: over it, `429` with
   * `Retry-After`; each message of a batch counts. Default: none (a fair
   * limit depends on the deployment: behind a proxy every client has the proxy's address).
   */
  rateLimit?: EndpointRateLimitOptions;
  /**
   * Experimental (SEP-2127 is a draft): serve the app's Server Card at `<path>/server-card`,
   * public (any origin, no token). `true`, or the card's name and public URL. Default: off.
   */
  serverCard?: boolean | ServerCardEndpointOptions;
}

/** The options with every default applied, computed once (what bindings read: `bodyLimit`, `path` …). */
export interface ResolvedHttpOptions {
  app: McpApp;
  path: string;
  sessions: boolean;
  responseMode: ResponseMode;
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
  bodyLimit: number;
  maxDrainBytes: number;
  drainTimeoutMs: number;
  maxSessions: number;
  maxListens: number;
  detachedRequestTimeoutMs: number;
  maxDetachedRequests: number;
  sessionIdleTimeoutMs: number;
  sessionStore: SessionStore;
  eventStore: EventStore;
  router: SessionRouter | undefined;
  maxEventBytesPerSession: number;
  limits: EncodeLimits;
  retryMs: number;
  keepAliveMs: number;
  standaloneStream: boolean;
  /** The paths of the HTTP+SSE transport, when it is served (`legacySse`). */
  httpSse: { ssePath: string; messagesPath: string } | undefined;
  auth: ResourceServerOptions | undefined;
  rateLimit: EndpointRateLimitOptions | undefined;
  serverCard: ServerCardEndpointOptions | undefined;
}

/** Applies the defaults docs/http.md lists; throws a TypeError without an app, or with legacySse and auth together. */
// eslint-disable-next-line complexity -- options validation moves to one schema per options object (issue #27 item 8)
export function resolveOptions(options: McpHttpOptions): ResolvedHttpOptions {
  if (!options || typeof options.app !== 'object' || typeof options.app.connect !== 'function') {
    throw new TypeError('mcpkit HTTP: pass the app made by createApp as the `app` option');
  }
  const sse = options.legacySse;
  if (sse && options.auth !== undefined) {
    // The 2024-11-05 HTTP+SSE endpoints take no bearer token: beside a resource server they would
    // serve every tool to anyone who can reach them.
    throw new TypeError('mcpkit HTTP: legacySse cannot be combined with auth; the legacy HTTP+SSE transport has no resource-server support');
  }
  const bodyLimit = options.bodyLimit ?? 4 * 1024 * 1024;
  const maxEventBytesPerSession = options.maxEventBytesPerSession ?? DEFAULT_MAX_EVENT_BYTES_PER_SESSION;
  const maxResponseSize = options.maxResponseSize ?? DEFAULT_MAX_RESPONSE_BYTES;
  return Object.freeze({
    app: options.app,
    path: options.path ?? '/mcp',
    sessions: options.sessions ?? true,
    responseMode: options.responseMode ?? 'auto',
    allowedHosts: options.allowedHosts ?? LOOPBACK_HOSTS,
    allowedOrigins: options.allowedOrigins ?? [],
    bodyLimit,
    maxDrainBytes: options.maxDrainBytes ?? 64 * 1024 * 1024,
    drainTimeoutMs: options.drainTimeoutMs ?? 10_000,
    maxSessions: options.maxSessions ?? 10_000,
    maxListens: positiveOption(options.maxListens, 'maxListens', 1_000),
    detachedRequestTimeoutMs: positiveOption(options.detachedRequestTimeoutMs, 'detachedRequestTimeoutMs', 5 * 60 * 1000),
    maxDetachedRequests: positiveOption(options.maxDetachedRequests, 'maxDetachedRequests', 1_000),
    sessionIdleTimeoutMs: options.sessionIdleTimeoutMs ?? 30 * 60 * 1000,
    sessionStore: options.sessionStore ?? new MemorySessionStore(),
    eventStore:
      options.eventStore ?? new MemoryEventStore({ maxBytesPerSession: maxEventBytesPerSession, maxBytes: options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES }),
    router: options.router,
    maxEventBytesPerSession,
    limits: Object.freeze({ maxMessageBytes: maxResponseSize, maxBatchBytes: options.maxBatchResponseSize ?? bodyLimit }),
    retryMs: options.retryMs ?? 1_000,
    keepAliveMs: options.keepAliveMs ?? 25_000,
    standaloneStream: options.standaloneStream ?? true,
    httpSse: sse
      ? { ssePath: (sse === true ? undefined : sse.ssePath) ?? '/sse', messagesPath: (sse === true ? undefined : sse.messagesPath) ?? '/messages' }
      : undefined,
    auth: options.auth,
    rateLimit: options.rateLimit,
    serverCard: options.serverCard === true ? {} : options.serverCard || undefined,
  });
}

/** A count option: its default when absent, else a positive integer (a TypeError names it). */
function positiveOption(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(Number.isSafeInteger(value) && value > 0)) throw new TypeError(`mcpkit HTTP: ${name} must be a positive integer (got ${String(value)})`);
  return value;
}
