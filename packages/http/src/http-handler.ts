import type { Logger } from '@mcpkit/core';
import { HostOriginCheck } from './host-origin-check';
import { headerValue, type HttpBodyResult, type HttpHeaders, type HttpRequest, type HttpResult } from './http-result';
import { HttpSseEndpoints } from './http-sse-endpoints';
import { resolveOptions, type McpHttpOptions, type ResolvedHttpOptions } from './options';
import { SessionRegistry } from './session-registry';
import { RoutedSessions } from './routed-sessions';
import { StreamableHttpEndpoint } from './streamable-http';
import { ResourceServer, type Authentication } from './resource-server';
import { EndpointRateLimit } from './endpoint-rate-limit';
import { ServerCardRoute } from './server-card-route';
import { preflight, withCors } from './cors';
import { FAULTS, faultResult } from './transport-faults';

/**
 * What went wrong below the MCP endpoint, in the binding's own HTTP layer (reading the body …).
 * The core picks the status and the JSON-RPC error (`transport-faults.ts`), so every binding answers alike.
 */
export type TransportFault =
  /** The body is over `maxMessageBytes`: 413. */
  | { kind: 'body-too-large' }
  /** The body is not `application/json`: 415. */
  | { kind: 'unsupported-media-type' }
  /** The body is compressed (`Content-Encoding`): 415. */
  | { kind: 'compressed-body' }
  /** The body could not be read as a message (empty where one is needed, a wrong length): 400, -32700. */
  | { kind: 'malformed-body' }
  /** The upload broke off before the body's end: 400. */
  | { kind: 'incomplete-body' }
  /** Another client error the binding's HTTP layer found, with its 4xx status. */
  | { kind: 'client-error'; status: number; message: string }
  /** Anything else: 500, -32603, logged. */
  | { kind: 'internal'; error: unknown };

/** Options of `createHttpHandler`: the endpoint's options, plus what the binding knows. */
export interface HttpHandlerOptions extends McpHttpOptions {
  /** Where the handler logs (default: the app's logger). */
  logger?: Logger;
  /** The path prefix the binding mounts the endpoint under, for the URLs it announces (the HTTP+SSE `endpoint` event). */
  mountPrefix?: string;
}

/**
 * The framework-neutral Streamable HTTP core: sessions, resumption, the Host/Origin guard, era
 * routing and every status decision. A binding turns its framework's request into an
 * `HttpRequest`, and writes the `HttpResult` back: a body, or an SSE stream it pipes.
 */
export interface McpHttpHandler {
  /** The options with every default applied. */
  readonly options: ResolvedHttpOptions;
  /** What to route to `handle`: every method on each path (a binding that routes itself registers these). */
  readonly routes: ReadonlyArray<{ readonly methods: readonly string[]; readonly path: string }>;
  /** Serves one request: never throws, always answers. */
  handle(request: HttpRequest): Promise<HttpResult>;
  /**
   * DNS-rebinding protection: the `403` for a bad `Host` or `Origin`, else undefined. A binding
   * may call it before reading a body; `handle` calls it too. With `path`, the Protected
   * Resource Metadata is public: any `Origin` may read it (its `Host` is still checked).
   */
  guard(headers: HttpHeaders, path?: string): HttpResult | undefined;
  /**
   * With `auth`: checks a request's bearer token before its body is read (who it is, or the
   * `401` / `400` / `503` to answer). Without `auth`: everyone is anonymous. A binding that calls
   * it passes the outcome on as `request.auth`; otherwise `handle` calls it.
   */
  authenticate(request: Pick<HttpRequest, 'method' | 'path' | 'headers' | 'query'>, logger?: Logger): Promise<Authentication>;
  /**
   * Everything decided before a request's body is read, in order: with `rateLimit`, a `429` for
   * an address over its limit for requests without a valid token (before any token check);
   * its bearer token (with `auth`: `authenticate`); then the endpoint's rate limit (`429`), by
   * subject when the token is good, else by address. A binding
   * that calls it (when `admits`) passes the outcome on as `request.auth`; otherwise `handle`
   * calls it, after the body was read.
   */
  admit(request: Pick<HttpRequest, 'method' | 'path' | 'headers' | 'query' | 'remoteAddress'>, logger?: Logger): Promise<Authentication>;
  /** Whether `admit` checks anything (`auth` or `rateLimit` is set); a binding skips it otherwise. */
  readonly admits: boolean;
  /** The answer to a fault the binding's HTTP layer found. */
  fault(fault: TransportFault, logger?: Logger): HttpBodyResult;
  /** Ends streams and sessions (shutdown). */
  close(): Promise<void>;
}

function joinPath(prefix: string, path: string): string {
  return `${prefix.replace(/\/$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}

/**
 * Builds the core of a Streamable HTTP endpoint for a binding to serve.
 *
 * @example
 * const handler = createHttpHandler({ app });
 * const result = await handler.handle({ method: 'POST', path: '/mcp', headers, body });
 * if ('stream' in result) result.stream.pipe(sink);
 */
export function createHttpHandler(rawOptions: HttpHandlerOptions): McpHttpHandler {
  const { logger: givenLogger, mountPrefix = '', ...endpointOptions } = rawOptions ?? ({} as HttpHandlerOptions);
  const options = resolveOptions(endpointOptions);
  const logger = givenLogger ?? options.app.logger;
  // Scale-out: made only with a router, so a single instance runs none of it.
  const routed =
    options.sessions && options.router
      ? new RoutedSessions({
          app: options.app,
          router: options.router,
          limits: options.limits,
          retryMs: options.retryMs,
          keepAliveMs: options.streamKeepAliveMs,
          maxBufferedBytes: options.maxEventBytesPerSession,
          logger,
          sessionStore: options.sessionStore,
          lookup: (id) => registry?.peek(id),
          ended: (id) => registry?.endCopy(id),
        })
      : undefined;
  const registry: SessionRegistry | undefined = options.sessions
    ? new SessionRegistry(options.app, {
        maxSessions: options.maxSessions,
        idleTimeoutMs: options.sessionIdleTimeoutMs,
        sessionStore: options.sessionStore,
        eventStore: options.eventStore,
        stream: {
          priming: true,
          retryMs: options.retryMs,
          keepAliveMs: options.streamKeepAliveMs,
          limits: options.limits,
          maxBufferedBytes: options.maxEventBytesPerSession,
          logger,
          onStoreError: (error, streamId) => logger.error({ err: error, streamId }, 'event store failed: an event of this stream cannot be resumed'),
        },
        logger,
        routed,
      })
    : undefined;
  const resourceServer = options.auth ? new ResourceServer(options.auth, options.path) : undefined;
  const limiter = options.rateLimit ? new EndpointRateLimit(options.rateLimit) : undefined;
  const countBatch =
    limiter === undefined
      ? undefined
      : (request: HttpRequest, extra: number) =>
          limiter.checkBatch({ auth: request.auth ?? undefined, remoteAddress: request.remoteAddress }, extra, request.logger ?? logger);
  const endpoint = new StreamableHttpEndpoint(options, registry, logger, resourceServer, routed, countBatch);
  const ssePaths = options.httpSse;
  const sse = ssePaths
    ? new HttpSseEndpoints(
        options.app,
        joinPath(mountPrefix, ssePaths.messagesPath),
        options.streamKeepAliveMs,
        { limits: options.limits, maxBufferedBytes: options.maxEventBytesPerSession },
        logger,
        countBatch,
      )
    : undefined;
  // The endpoint's rate limit covers every path that serves MCP: the legacy HTTP+SSE ones too.
  const limitedPaths = new Set([options.path, ...(ssePaths ? [ssePaths.ssePath, ssePaths.messagesPath] : [])]);
  const routes = [{ methods: ['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS'], path: options.path }];
  if (ssePaths) routes.push({ methods: ['GET'], path: ssePaths.ssePath }, { methods: ['POST'], path: ssePaths.messagesPath });
  for (const path of resourceServer?.metadataPaths ?? []) routes.push({ methods: ['GET', 'HEAD', 'OPTIONS'], path });
  const card = options.serverCard ? new ServerCardRoute(options.app, joinPath(mountPrefix, options.path), options.serverCard) : undefined;
  // The route is matched on the path the binding sees (without its mount prefix).
  const cardPath = card ? `${options.path.replace(/\/$/, '')}/server-card` : undefined;
  // Every method: one the card does not take is answered 405 with Allow, not a bare 404.
  if (cardPath) routes.push({ methods: ['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS'], path: cardPath });

  const hostOrigin = new HostOriginCheck(options.allowedHosts, options.allowedOrigins);
  const guard = (headers: HttpHeaders, path?: string): HttpResult | undefined => {
    if (!hostOrigin.host(headerValue(headers.host))) return faultResult(FAULTS.badHost());
    // Public metadata (RFC 9728) for browser clients of any origin; it answers with `*`.
    if (path !== undefined && (resourceServer?.metadataPaths.has(path) || path === cardPath)) return undefined;
    if (!hostOrigin.origin(headerValue(headers.origin))) return faultResult(FAULTS.badOrigin());
    return undefined;
  };

  const fault = (problem: TransportFault, log: Logger = logger): HttpBodyResult => {
    switch (problem.kind) {
      case 'body-too-large':
        return faultResult(FAULTS.payloadTooLarge(options.maxMessageBytes));
      case 'unsupported-media-type':
        return faultResult(FAULTS.unsupportedMediaType());
      case 'compressed-body':
        return faultResult(FAULTS.compressedBody());
      case 'malformed-body':
        return faultResult(FAULTS.malformedBody());
      case 'incomplete-body':
        return faultResult(FAULTS.incompleteBody());
      case 'client-error': {
        const known = FAULTS.frameworkClientError(problem.status, problem.message);
        return known ? faultResult(known) : fault({ kind: 'internal', error: new Error(problem.message) }, log);
      }
      case 'internal':
        log.error({ err: problem.error }, 'MCP endpoint failed');
        return faultResult(FAULTS.internal());
    }
  };

  const anonymous: Authentication = Object.freeze({ auth: undefined });
  const authenticate = (request: Pick<HttpRequest, 'method' | 'path' | 'headers' | 'query'>, log: Logger = logger): Promise<Authentication> =>
    // Only the MCP endpoint needs credentials; a CORS preflight never carries them.
    resourceServer === undefined || request.path !== options.path || request.method === 'OPTIONS'
      ? Promise.resolve(anonymous)
      : resourceServer.authenticate(request, log);

  const admits = resourceServer !== undefined || limiter !== undefined;
  const admit = async (
    request: Pick<HttpRequest, 'method' | 'path' | 'headers' | 'query' | 'remoteAddress'>,
    log: Logger = logger,
  ): Promise<Authentication> => {
    const outcome = await admitted(request, log);
    // A browser must read a 401's challenge (or a 429's Retry-After) to act on it.
    return outcome.refused && request.path === options.path ? { refused: withCors(request.headers, outcome.refused) } : outcome;
  };
  const admitted = async (request: Pick<HttpRequest, 'method' | 'path' | 'headers' | 'query' | 'remoteAddress'>, log: Logger): Promise<Authentication> => {
    const limited = limiter !== undefined && limitedPaths.has(request.path) && request.method !== 'OPTIONS' ? limiter : undefined;
    if (limited === undefined) return authenticate(request, log);
    // An address over its limit for requests without a valid token is refused before its token
    // costs a verification (and an authorization server round trip with introspection).
    const gate = await limited.beforeTokenCheck(request.remoteAddress, log);
    if (gate.refused) return { refused: gate.refused };
    let outcome: Authentication;
    try {
      outcome = await authenticate(request, log);
    } finally {
      gate.done();
    }
    if (outcome.auth === undefined) {
      // Anonymous or refused: the address's bucket (once: it may have been counted before).
      if (outcome.refused) limited.refusedAt(request.remoteAddress);
      if (gate.counted) return outcome;
      const over = await limited.check({ auth: undefined, remoteAddress: request.remoteAddress }, log);
      return over ? { refused: over } : outcome;
    }
    // After the token check, so an authenticated caller counts as itself wherever it connects from.
    const over = await limited.check({ auth: outcome.auth, remoteAddress: request.remoteAddress }, log);
    return over ? { refused: over } : outcome;
  };

  // Not async: `handle` awaits the endpoint's own promise, with no async layer between them
  // (each would cost a promise and turns of the microtask queue on every request).
  const route = (request: HttpRequest): HttpResult | Promise<HttpResult> => {
    if (resourceServer?.metadataPaths.has(request.path)) return resourceServer.metadata(request.method);
    if (card && request.path === cardPath) return card.answer(request.method, request.headers);
    if (admits && limitedPaths.has(request.path) && request.auth === undefined) return admitThenRoute(request);
    return routeAdmitted(request);
  };

  /** A request the binding did not admit before reading its body (`admit` not called). */
  const admitThenRoute = async (request: HttpRequest): Promise<HttpResult> => {
    const outcome = await admit(request, request.logger);
    if (outcome.refused) return outcome.refused;
    return routeAdmitted({ ...request, auth: outcome.auth ?? null });
  };

  const routeAdmitted = (request: HttpRequest): HttpResult | Promise<HttpResult> => {
    if (request.path === options.path) return routeEndpoint(withoutCredential(request));
    return routeLegacySse(request) ?? faultResult(FAULTS.noEndpoint());
  };

  /** A7: the credential ends at the resource server. Handlers get ctx.auth, never a token to pass on (nor one a session would keep from its initialize request's headers). */
  const withoutCredential = (request: HttpRequest): HttpRequest => {
    if (resourceServer === undefined || request.headers.authorization === undefined) return request;
    const headers = { ...request.headers };
    delete headers.authorization;
    return { ...request, headers };
  };

  /** The MCP endpoint, by method. */
  const routeEndpoint = (request: HttpRequest): HttpResult | Promise<HttpResult> => {
    switch (request.method) {
      case 'OPTIONS':
        return preflight(request.headers, registry ? 'GET, POST, DELETE' : 'POST') ?? endpoint.methodNotAllowed();
      case 'POST':
        return endpoint.post(request);
      case 'GET':
        return endpoint.get(request);
      case 'DELETE':
        return endpoint.delete(request);
      default:
        return endpoint.methodNotAllowed();
    }
  };

  /** The legacy SSE transport's two paths, when it is on; undefined for any other path. */
  const routeLegacySse = (request: HttpRequest): HttpResult | Promise<HttpResult> | undefined => {
    if (!sse || !ssePaths) return undefined;
    if (request.path === ssePaths.ssePath) return request.method === 'GET' ? sse.open(request) : faultResult(FAULTS.methodNotAllowed('GET'));
    if (request.path === ssePaths.messagesPath) return request.method === 'POST' ? sse.message(request) : faultResult(FAULTS.methodNotAllowed('POST'));
    return undefined;
  };

  return {
    options,
    routes,
    guard,
    authenticate,
    admit,
    admits,
    fault,
    async handle(request: HttpRequest): Promise<HttpResult> {
      try {
        const refused = guard(request.headers, request.path);
        if (refused) return refused;
        const result = await route(request);
        return request.path === options.path ? withCors(request.headers, result) : result;
      } catch (error) {
        return fault({ kind: 'internal', error }, request.logger);
      }
    },
    async close(): Promise<void> {
      endpoint.close();
      sse?.closeAll();
      await registry?.closeAll();
    },
  };
}
