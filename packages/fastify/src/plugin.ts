import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { InternalError, InvalidRequestError, ParseError } from '@mcpkit/core';
import { isAllowedHost, isAllowedOrigin } from './host-origin';
import { headerValue, sendHttpError } from './http-error';
import { LegacySseEndpoints } from './legacy-sse';
import { resolveOptions, type McpHttpOptions } from './options';
import { SessionRegistry } from './session-registry';
import { StreamableHttpEndpoint } from './streamable-http';

function joinPath(prefix: string, path: string): string {
  return `${prefix.replace(/\/$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}

const plugin: FastifyPluginAsync<McpHttpOptions> = async (instance: FastifyInstance, rawOptions: McpHttpOptions) => {
  const options = resolveOptions(rawOptions);
  const registry = options.sessions
    ? new SessionRegistry(options.app, {
        maxSessions: options.maxSessions,
        idleTimeoutMs: options.sessionIdleTimeoutMs,
        sessionStore: options.sessionStore,
        eventStore: options.eventStore,
        stream: {
          priming: true,
          retryMs: options.retryMs,
          keepAliveMs: options.keepAliveMs,
          limits: options.limits,
          maxBufferedBytes: options.maxEventBytesPerSession,
          logger: instance.log,
          onStoreError: (error) => instance.log.error({ err: error }, 'event store failed'),
        },
        logger: instance.log,
      })
    : undefined;
  const endpoint = new StreamableHttpEndpoint(options, registry);

  // Only this plugin's routes: the host keeps its own parsers. Bodies stay strings, parsed by core.
  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: options.bodyLimit }, (request, body, done) => {
    // Fastify does not decompress: a compressed body would reach core as garbage.
    const encoding = headerValue(request.headers['content-encoding']);
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
      done(Object.assign(new Error('Unsupported Media Type: a compressed body (Content-Encoding) is not accepted; send plain JSON'), { statusCode: 415 }), undefined);
      return;
    }
    done(null, body);
  });

  // DNS-rebinding protection (transports, "Security Warning"): a bad Host or Origin is 403.
  instance.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isAllowedHost(headerValue(request.headers.host), options.allowedHosts)) {
      return sendHttpError(reply, 403, new InvalidRequestError('Forbidden: this Host is not allowed'));
    }
    if (!isAllowedOrigin(headerValue(request.headers.origin), options.allowedOrigins, options.allowedHosts)) {
      return sendHttpError(reply, 403, new InvalidRequestError('Forbidden: this Origin is not allowed'));
    }
    return undefined;
  });

  instance.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendHttpError(reply, 413, new InvalidRequestError(`Payload Too Large: the limit is ${options.bodyLimit} bytes`));
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendHttpError(reply, 415, new InvalidRequestError('Unsupported Media Type: send the JSON-RPC message as application/json'));
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return sendHttpError(reply, 400, new ParseError());
      default:
        if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
          return sendHttpError(reply, error.statusCode, new InvalidRequestError(error.message));
        }
        request.log.error({ err: error }, 'MCP endpoint failed');
        return sendHttpError(reply, 500, new InternalError());
    }
  });

  instance.route({ method: 'POST', url: options.path, handler: endpoint.post });
  instance.route({ method: 'GET', url: options.path, exposeHeadRoute: false, handler: endpoint.get });
  instance.route({ method: 'DELETE', url: options.path, handler: endpoint.delete });
  instance.route({ method: ['PUT', 'PATCH', 'HEAD', 'OPTIONS'], url: options.path, handler: async (_request, reply) => endpoint.methodNotAllowed(reply) });

  let legacy: LegacySseEndpoints | undefined;
  if (options.legacySse) {
    legacy = new LegacySseEndpoints(options.app, joinPath(instance.prefix, options.legacySse.messagesPath), options.keepAliveMs, {
      limits: options.limits,
      maxBufferedBytes: options.maxEventBytesPerSession,
    });
    instance.route({ method: 'GET', url: options.legacySse.ssePath, exposeHeadRoute: false, handler: legacy.open });
    instance.route({ method: 'POST', url: options.legacySse.messagesPath, handler: legacy.message });
  }

  // End streams and sessions before the server waits for open connections to finish.
  instance.addHook('preClose', async () => {
    legacy?.closeAll();
    await registry?.closeAll();
  });
};

/**
 * Mounts an mcpkit app on a Fastify service as a Streamable HTTP endpoint. Encapsulated: the
 * host's other routes, hooks, parsers and error handler are untouched.
 *
 * @example
 * const fastify = Fastify({ logger: true });
 * await fastify.register(mcpkit, { app, path: '/mcp' });
 * await fastify.listen({ port: 3000 });
 */
export const mcpkit = fp(plugin, { name: '@mcpkit/fastify', fastify: '5.x', encapsulate: true });
