import { type McpApp } from '@mcpkit/core';
import { DEFAULT_MAX_RESPONSE_BYTES, readOptions, optionTypeError, duration, isApp, type EncodeLimits, type OptionTable } from '@mcpkit/core/transport';
import { DEFAULT_MAX_EVENT_BYTES, DEFAULT_MAX_EVENT_BYTES_PER_SESSION, MemoryEventStore, type EventStore } from './event-store';
import { LOOPBACK_HOSTS } from './host-origin';
import { MemorySessionStore, type SessionStore } from './session-store';
import type { ResourceServerOptions } from './resource-server';
import type { EndpointRateLimitOptions } from './endpoint-rate-limit';
import type { ServerCardEndpointOptions } from './server-card-route';
import type { SessionRouter } from './session-router';

/** How a POST that carries a request is answered. */
export type ResponseMode = 'auto' | 'json' | 'sse';

/**
 * Options of a Streamable HTTP endpoint: the `mcpkit` Fastify plugin, `serveHttp`,
 * `createFetchHandler`. Each option's rule and default are in `HTTP_OPTIONS` below: a new option
 * goes in both.
 */
export interface McpHttpOptions {
  /** The app to serve. */
  app: McpApp;
  /** Path of the MCP endpoint (default `/mcp`). The plugin ignores Fastify's `prefix`… unless you register it inside a prefixed plugin. */
  path?: string;
  /** Legacy-era sessions with `Mcp-Session-Id` (default true); false serves every request on its own. */
  sessions?: boolean;
  /**
   * `auto` (default): JSON, unless the handler sends something before its result, which turns
   * the answer into an SSE stream; `json`: always JSON (related notifications are dropped);
   * `sse`: always a stream.
   */
  responseMode?: ResponseMode;
  /** Allowed `Host` values: hostnames (any port), `host:port`, or `*`. Default: loopback names. */
  allowedHosts?: readonly string[];
  /** Allowed `Origin` values besides origins on an allowed host: exact origins, or `*` (default: none). */
  allowedOrigins?: readonly string[];
  /** Largest accepted body (one message, or a 2025-03-26 batch) in bytes (default 4 MiB); larger bodies get 413. */
  maxMessageBytes?: number;
  /** @deprecated use `maxMessageBytes` (the same limit; this name goes in the next release). */
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
  maxResponseBytes?: number;
  /** @deprecated use `maxResponseBytes` (the same limit; this name goes in the next release). */
  maxResponseSize?: number;
  /**
   * Largest answer to a 2025-03-26 batch in bytes, all elements together (default:
   * `maxMessageBytes`, so a batch answers no more than a client may send); each element past it
   * is answered `-32603` for its id.
   */
  maxBatchResponseBytes?: number;
  /** @deprecated use `maxBatchResponseBytes` (the same limit; this name goes in the next release). */
  maxBatchResponseSize?: number;
  /** `retry` advice sent with the priming event, in ms (default 1 000). */
  retryMs?: number;
  /**
   * Interval of the keep-alive comment sent on open SSE streams, in ms (default 25 000; 0
   * disables). Not the HTTP keep-alive of idle connections (`serveHttp`'s `keepAliveTimeoutMs`).
   */
  streamKeepAliveMs?: number;
  /** @deprecated use `streamKeepAliveMs` (the same interval; this name goes in the next release). */
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

/** The options with every default applied, computed once (what bindings read: `maxMessageBytes`, `path` …). */
export interface ResolvedHttpOptions {
  app: McpApp;
  path: string;
  sessions: boolean;
  responseMode: ResponseMode;
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
  maxMessageBytes: number;
  /** @deprecated read `maxMessageBytes` (the same number; this name goes in the next release). */
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
  streamKeepAliveMs: number;
  /** @deprecated read `streamKeepAliveMs` (the same number; this name goes in the next release). */
  keepAliveMs: number;
  standaloneStream: boolean;
  /** The paths of the HTTP+SSE transport, when it is served (`legacySse`). */
  httpSse: { ssePath: string; messagesPath: string } | undefined;
  auth: ResourceServerOptions | undefined;
  rateLimit: EndpointRateLimitOptions | undefined;
  serverCard: ServerCardEndpointOptions | undefined;
}

const MiB = 1024 * 1024;
/** A URL path the endpoint is served at: from "/", without a query, a fragment or white space (Fastify asserts as much, naming no option). */
const urlPath = <const Default extends string>(fallback: Default) =>
  ({
    type: 'custom',
    expected: 'a path starting with "/" (no "?", "#" or spaces)',
    test: (value: unknown) => typeof value === 'string' && /^\/[^?#\s]*$/.test(value),
    default: fallback,
  }) as const;
/** An option the object it configures checks itself, with its own message (ResourceServer, EndpointRateLimit): here only its name is known. */
const checkedBy = (owner: string) => ({ type: 'custom', expected: `what ${owner} accepts`, test: () => true }) as const;
/** `auth`: the names of ResourceServerOptions, so a typo (anonymus) is refused, not ignored. */
const AUTH_OPTIONS = {
  resource: checkedBy('auth'),
  authorizationServers: checkedBy('auth'),
  verifier: checkedBy('auth'),
  scopesSupported: { type: 'strings' },
  anonymous: { type: 'enum', values: ['deny', 'allow'] },
  metadataAtRoot: { type: 'boolean' },
  resourceName: { type: 'string' },
  resourceDocumentation: { type: 'string' },
} as const satisfies OptionTable<ResourceServerOptions>;
/** `rateLimit`: the names of EndpointRateLimitOptions (a typo such as stor is refused). */
const RATE_LIMIT_OPTIONS = {
  limit: checkedBy('rateLimit'),
  windowMs: checkedBy('rateLimit'),
  by: checkedBy('rateLimit'),
  store: checkedBy('rateLimit'),
  now: checkedBy('rateLimit'),
} as const satisfies OptionTable<EndpointRateLimitOptions>;
const SERVER_CARD_OPTIONS = {
  name: { type: 'string', nonEmpty: true },
  description: { type: 'string', nonEmpty: true },
  url: { type: 'string', nonEmpty: true },
} as const satisfies OptionTable<ServerCardEndpointOptions>;
const LEGACY_SSE_PATHS = {
  ssePath: urlPath('/sse'),
  messagesPath: urlPath('/messages'),
} as const;

/** The rule and the default of every option of an HTTP endpoint, checked once by `resolveOptions` (docs/http.md lists them). */
export const HTTP_OPTIONS = {
  app: { type: 'custom', expected: 'the app made by createApp', test: isApp, required: true },
  path: urlPath('/mcp'),
  sessions: { type: 'boolean', default: true },
  responseMode: { type: 'enum', values: ['auto', 'json', 'sse'], default: 'auto' },
  allowedHosts: { type: 'strings', default: LOOPBACK_HOSTS },
  allowedOrigins: { type: 'strings', default: [] },
  maxMessageBytes: { type: 'integer', min: 1, default: 4 * MiB },
  bodyLimit: { alias: 'maxMessageBytes' },
  maxDrainBytes: { type: 'integer', min: 0, default: 64 * MiB },
  drainTimeoutMs: duration({ min: 0, default: 10_000 }),
  maxListens: { type: 'integer', min: 1, default: 1_000 },
  detachedRequestTimeoutMs: duration({ min: 1, default: 5 * 60 * 1000 }),
  maxDetachedRequests: { type: 'integer', min: 1, default: 1_000 },
  maxSessions: { type: 'integer', min: 1, default: 10_000 },
  sessionIdleTimeoutMs: duration({ min: 1, default: 30 * 60 * 1000 }),
  sessionStore: { type: 'object', methods: ['get', 'set', 'delete'], defaultText: 'new MemorySessionStore()' },
  router: {
    type: 'object',
    methods: ['start', 'send', 'created', 'attach', 'forward', 'subscribe', 'subscribed', 'deleteSession', 'close'],
    defaultText: 'none',
  },
  eventStore: { type: 'object', methods: ['append', 'after'], defaultText: 'a MemoryEventStore bounded by maxEventBytesPerSession and maxEventBytes' },
  maxEventBytesPerSession: { type: 'integer', min: 1, default: DEFAULT_MAX_EVENT_BYTES_PER_SESSION },
  maxEventBytes: { type: 'integer', min: 1, default: DEFAULT_MAX_EVENT_BYTES },
  maxResponseBytes: { type: 'integer', min: 1, default: DEFAULT_MAX_RESPONSE_BYTES },
  maxResponseSize: { alias: 'maxResponseBytes' },
  maxBatchResponseBytes: { type: 'integer', min: 1, defaultText: 'maxMessageBytes' },
  maxBatchResponseSize: { alias: 'maxBatchResponseBytes' },
  retryMs: duration({ min: 0, default: 1_000 }),
  streamKeepAliveMs: duration({ min: 0, default: 25_000 }),
  keepAliveMs: { alias: 'streamKeepAliveMs' },
  standaloneStream: { type: 'boolean', default: true },
  legacySse: {
    type: 'anyOf',
    rules: [{ type: 'boolean' }, { type: 'object', table: LEGACY_SSE_PATHS }],
    default: false,
  },
  auth: { type: 'object', table: AUTH_OPTIONS, defaultText: 'none' },
  rateLimit: { type: 'object', table: RATE_LIMIT_OPTIONS, defaultText: 'none' },
  serverCard: { type: 'anyOf', rules: [{ type: 'boolean' }, { type: 'object', table: SERVER_CARD_OPTIONS }], default: false },
} as const satisfies OptionTable<McpHttpOptions>;

/**
 * Checks the options against `HTTP_OPTIONS` and applies its defaults (docs/http.md lists them);
 * throws a TypeError that names the option, or for legacySse and auth together. An old option
 * name is taken for its new one, with one warning on the app's logger.
 */
export function resolveOptions(given: McpHttpOptions): ResolvedHttpOptions {
  const label = 'mcpkit HTTP';
  const options = readOptions(HTTP_OPTIONS, given, {
    label,
    fail: optionTypeError,
    warn: (message) => (isApp(given?.app) ? given.app.logger : undefined)?.warn(message),
  });
  const sse = options.legacySse;
  if (sse && options.auth !== undefined) {
    // The 2024-11-05 HTTP+SSE endpoints take no bearer token: beside a resource server they would
    // serve every tool to anyone who can reach them.
    throw new TypeError(`${label}: legacySse cannot be combined with auth; the legacy HTTP+SSE transport has no resource-server support`);
  }
  return Object.freeze({
    ...options,
    bodyLimit: options.maxMessageBytes,
    keepAliveMs: options.streamKeepAliveMs,
    sessionStore: options.sessionStore ?? new MemorySessionStore(),
    eventStore: options.eventStore ?? new MemoryEventStore({ maxBytesPerSession: options.maxEventBytesPerSession, maxBytes: options.maxEventBytes }),
    router: options.router,
    // Checked above; given on as given (the verifier, the store …), not as the copy read.
    auth: given.auth,
    rateLimit: given.rateLimit,
    limits: Object.freeze({ maxMessageBytes: options.maxResponseBytes, maxBatchBytes: options.maxBatchResponseBytes ?? options.maxMessageBytes }),
    // An object was read against LEGACY_SSE_PATHS, its defaults applied.
    httpSse:
      sse === true
        ? { ssePath: LEGACY_SSE_PATHS.ssePath.default, messagesPath: LEGACY_SSE_PATHS.messagesPath.default }
        : (sse as Required<typeof sse>) || undefined,
    serverCard: options.serverCard === true ? {} : options.serverCard || undefined,
  });
}
