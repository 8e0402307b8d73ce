import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import { censorQueryCredentials, createHttpHandler, nodeHeaders, type HttpRequest, type McpHttpOptions, type TransportFault } from '@mcpkit/http';
import { authenticated, send, toHttpRequest } from './reply';

const COMPRESSED = 'MCPKIT_HTTP_COMPRESSED_BODY';

/** Fastify's own `req` log fields, with credentials in the query string censored. */
function loggedRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: censorQueryCredentials(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** What Fastify's body handling found, in the core's words (the core picks status and error). */
function faultOf(error: FastifyError): TransportFault {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { kind: 'body-too-large' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { kind: 'unsupported-media-type' };
    case COMPRESSED:
      return { kind: 'compressed-body' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { kind: 'malformed-body' };
    default:
      return typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500
        ? { kind: 'client-error', status: error.statusCode, message: error.message }
        : { kind: 'internal', error };
  }
}

/**
 * The request's headers with every Authorization line it sent: Node keeps only the first of
 * several, and the resource server must see them all to refuse the request (A13).
 */

const plugin: FastifyPluginAsync<McpHttpOptions> = async (instance: FastifyInstance, registerOptions: McpHttpOptions) => {
  // Fastify's own register options (`prefix` …) are Fastify's business: the rest are the endpoint's.
  const {
    prefix: _prefix,
    logLevel: _logLevel,
    logSerializers: _logSerializers,
    ...rawOptions
  } = (registerOptions ?? {}) as McpHttpOptions & { prefix?: unknown; logLevel?: unknown; logSerializers?: unknown };
  const core = createHttpHandler({ ...rawOptions, logger: instance.log, mountPrefix: instance.prefix });
  const { options } = core;

  // Only this plugin's routes: the host keeps its own parsers. Bodies stay strings, parsed by core.
  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: options.maxMessageBytes }, (request, body, done) => {
    // Fastify does not decompress: a compressed body would reach core as garbage.
    const encoding = request.headers['content-encoding']?.trim();
    if (encoding && encoding.toLowerCase() !== 'identity') {
      done(Object.assign(new Error('compressed body'), { code: COMPRESSED }), undefined);
      return;
    }
    done(null, body);
  });

  // DNS-rebinding protection before any body is read: a bad Host or Origin is 403. A callback
  // hook, not an async one: Fastify then spends no promise on every request that passes. One per
  // route, holding the route's path: `request.routeOptions` builds a fresh object on every read.
  const guardFor =
    (path: string) =>
    (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
      const refused = core.guard(request.headers, path);
      if (refused) {
        send(reply, refused);
        return;
      }
      if (!core.admits) {
        done();
        return;
      }
      // The token and the rate limit before the body is read: a stranger's body, or one over the limit, costs nothing.
      const headers = nodeHeaders(request.raw);
      const admitted = { method: request.method, path, headers, query: request.query as HttpRequest['query'], remoteAddress: request.ip };
      core.admit(admitted, request.log).then(
        (outcome) => {
          if (outcome.refused) send(reply, outcome.refused);
          else {
            authenticated.set(request, outcome.auth ?? null);
            done();
          }
        },
        (error: Error) => done(error),
      );
    };

  // Fastify closes the connection after refusing a body it did not read: the answer goes out,
  // then what the client still sends is read (bounded), so it reads the answer, not a reset.
  instance.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
    send(reply, core.fault(faultOf(error), request.log), options),
  );

  for (const { methods, path } of core.routes) {
    // Not an async handler: Fastify would wait on its promise, then on the reply it resolved to
    // (a thenable), two more turns of the microtask queue for every request.
    const handler = (request: FastifyRequest, reply: FastifyReply): void => {
      const incoming = toHttpRequest(request, reply, path);
      // Fastify keeps its request for as long as the response lasts (hours, for a stream): not
      // the body too, which core has read by now.
      request.body = undefined;
      // A throw while writing (or a rejection `handle` should never give) goes to the error
      // handler, as it did from an async handler.
      core.handle(incoming).then(
        (result) => {
          try {
            send(reply, result);
          } catch (error) {
            reply.send(error as Error);
          }
        },
        (error: Error) => reply.send(error),
      );
    };
    // With request logging on, Fastify's lines carry `req.url`: a token sent in the query (refused
    // with 400, A13) must not reach the log on the way.
    instance.route({
      method: [...methods],
      url: path,
      exposeHeadRoute: false,
      onRequest: guardFor(path),
      handler,
      logSerializers: { req: loggedRequest },
    });
  }

  // End streams and sessions before the server waits for open connections to finish.
  instance.addHook('preClose', () => core.close());
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
