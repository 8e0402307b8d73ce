import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { McpApp } from '@mcpkit/core';
import { readOptions, optionTypeError, duration, assertApp, type OptionTable } from '@mcpkit/core/transport';
import { hasSubscribers } from 'node:diagnostics_channel';
import { createServer } from 'node:http';
import { answerClientError, createNodeHandler, HTTP_OPTIONS } from '@mcpkit/http';
import type { McpHttpOptions } from '@mcpkit/http';
import { mcpkit } from './plugin';

/**
 * Options of `serveHttp`: the plugin's options plus where to listen. Each option's rule and
 * default are in `SERVE_HTTP_OPTIONS` below (the plugin's in `HTTP_OPTIONS`): a new option goes
 * in both.
 */
export interface ServeHttpOptions extends Omit<McpHttpOptions, 'app'> {
  /** Interface to bind (default 127.0.0.1: loopback only). */
  host?: string;
  /** Port (default 3000; 0 picks a free one). */
  port?: number;
  /** Also log one line per HTTP request, as Fastify does (default false: mcpkit logs one per MCP request). */
  requestLogging?: boolean;
  /**
   * Time a client has to send a whole request, headers and body, in ms (default 30 000; 0
   * disables). A slower client gets `408` and its connection is closed. It covers receiving the
   * request only: a response stream (SSE) may last as long as it likes. Headers alone must
   * arrive within the smaller of this and 60 s. Fastify's and Node's `requestTimeout`.
   */
  receiveTimeoutMs?: number;
  /** @deprecated use `receiveTimeoutMs` (the same timeout; this name goes in the next release). */
  requestTimeout?: number;
  /**
   * A connection on which nothing moves either way for this long is closed, in ms (default
   * 600 000; 0 disables). Keep it above `streamKeepAliveMs` (open streams send a comment that
   * often) and above the longest a tool may think without sending progress. Fastify's
   * `connectionTimeout`.
   */
  connectionTimeoutMs?: number;
  /** @deprecated use `connectionTimeoutMs` (the same timeout; this name goes in the next release). */
  connectionTimeout?: number;
  /**
   * An idle HTTP keep-alive connection between requests is closed after this long, in ms
   * (default 72 000). Fastify's and Node's `keepAliveTimeout`; not the comments on open streams
   * (`streamKeepAliveMs`).
   */
  keepAliveTimeoutMs?: number;
  /** @deprecated use `keepAliveTimeoutMs` (the same timeout; this name goes in the next release). */
  keepAliveTimeout?: number;
  /**
   * Most connections open at once (default 10 000); further ones are closed as they arrive. An
   * open GET stream holds one for as long as it lasts.
   */
  maxConnections?: number;
}

const { app: _app, ...ENDPOINT_OPTIONS } = HTTP_OPTIONS;

/** The rule and the default of every option of `serveHttp`: its own, then the plugin's (docs/http.md lists them). */
export const SERVE_HTTP_OPTIONS = {
  host: { type: 'string', nonEmpty: true, default: '127.0.0.1' },
  port: { type: 'integer', min: 0, max: 65_535, default: 3000 },
  requestLogging: { type: 'boolean', default: false },
  receiveTimeoutMs: duration({ min: 0, default: 30_000 }),
  requestTimeout: { alias: 'receiveTimeoutMs' },
  connectionTimeoutMs: duration({ min: 0, default: 10 * 60_000 }),
  connectionTimeout: { alias: 'connectionTimeoutMs' },
  keepAliveTimeoutMs: duration({ min: 0, default: 72_000 }),
  keepAliveTimeout: { alias: 'keepAliveTimeoutMs' },
  maxConnections: { type: 'integer', min: 1, default: 10_000 },
  ...ENDPOINT_OPTIONS,
} as const satisfies OptionTable<ServeHttpOptions>;

// Node's own bound on receiving headers.
const NODE_HEADERS_TIMEOUT_MS = 60_000;

/** A running standalone server. */
export interface HttpServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  readonly port: number;
  /**
   * The Fastify instance inside. It is listening, so it takes no more routes or hooks: to serve
   * your own routes beside MCP, register the `mcpkit` plugin in your own Fastify app instead.
   */
  readonly fastify: FastifyInstance;
  /** Ends streams and sessions, then stops listening. */
  close(): Promise<void>;
}

/**
 * Serves an app over Streamable HTTP on its own Fastify server.
 *
 * @example
 * const server = await serveHttp(app, { port: 3000 });
 * console.error(`MCP endpoint: ${server.url}`);
 */
export async function serveHttp(app: McpApp, given: ServeHttpOptions = {}): Promise<HttpServer> {
  assertApp('serveHttp', app);
  const options = readOptions(SERVE_HTTP_OPTIONS, given, {
    label: 'serveHttp',
    fail: optionTypeError,
    warn: (message) => app.logger.warn(message),
  });
  const {
    host,
    port,
    requestLogging,
    receiveTimeoutMs: requestTimeout,
    connectionTimeoutMs: connectionTimeout,
    keepAliveTimeoutMs,
    maxConnections,
    ...pluginOptions
  } = options;
  const keepAliveMs = pluginOptions.streamKeepAliveMs;
  if (connectionTimeout > 0 && keepAliveMs > 0 && connectionTimeout <= keepAliveMs) {
    throw new TypeError(
      `serveHttp: connectionTimeoutMs (${connectionTimeout} ms) must exceed streamKeepAliveMs (${keepAliveMs} ms), or idle streams are cut between their keep-alives`,
    );
  }
  const headersTimeout = requestTimeout > 0 ? Math.min(requestTimeout, NODE_HEADERS_TIMEOUT_MS) : NODE_HEADERS_TIMEOUT_MS;
  // Node checks those timeouts every connectionsCheckingInterval (30 s by default): often
  // enough that a slow client is cut close to requestTimeout, not up to 30 s later.
  const http = { headersTimeout, connectionsCheckingInterval: Math.min(1_000, Math.max(100, Math.floor(headersTimeout / 4))) };
  // A listening Fastify takes no more routes or hooks, so nothing but this function decides how the
  // MCP endpoint is served: without Fastify's request logging, its requests go to the `node:http`
  // binding before Fastify's router (through Fastify's pipeline a small call cost 1.2 to 1.45 times
  // the server CPU), and Fastify answers every other path. Both answer byte for byte alike.
  // Fastify's request logging, or anything that observes Fastify's requests through its
  // diagnostics channels (`@fastify/otel` with `registerOnInitialization`, APM agents), sees the
  // MCP requests only when they pass through Fastify: then they do.
  const observed = requestLogging || hasSubscribers('fastify.initialization') || hasSubscribers('tracing:fastify.request.handler:start');
  const direct = observed ? undefined : createNodeHandler(app, pluginOptions);
  const fastify = Fastify({
    loggerInstance: app.logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: !requestLogging }),
    // Fastify gives every request a child logger; its own is a pino child with req/res
    // serializers, ~2 µs a request, wanted only for the request logging that is off by default.
    // Off, `request.log` is a child of the app's logger: the same bindings (reqId) and lines.
    childLoggerFactory: requestLogging ? undefined : (_logger, bindings) => app.logger.child(bindings) as FastifyBaseLogger,
    bodyLimit: pluginOptions.maxMessageBytes,
    forceCloseConnections: true,
    requestTimeout,
    connectionTimeout,
    keepAliveTimeout: keepAliveTimeoutMs,
    http,
    // Fastify configures a server it was given no further: the same settings it gives its own.
    serverFactory: direct
      ? (fastifyListener) => {
          const server = createServer(http, (req, res) => direct(req, res, () => fastifyListener(req, res)));
          server.keepAliveTimeout = keepAliveTimeoutMs;
          server.requestTimeout = requestTimeout;
          server.setTimeout(connectionTimeout);
          return server;
        }
      : undefined,
    clientErrorHandler: (error, socket) => answerClientError(error, socket, app.logger),
  });
  fastify.server.maxConnections = maxConnections;
  // End streams and sessions before the server waits for open connections to finish.
  if (direct) fastify.addHook('preClose', () => direct.close());
  else await fastify.register(mcpkit, { ...pluginOptions, app });
  await fastify.listen({ host, port });
  const address = fastify.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${urlHost}:${boundPort}${pluginOptions.path}`,
    port: boundPort,
    fastify,
    close: () => fastify.close(),
  };
}
