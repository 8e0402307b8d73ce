import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { McpApp } from '@mcpkit/core';
import type { McpHttpOptions } from './options';
import { mcpkit } from './plugin';

/** Options of `serveHttp`: the plugin's options plus where to listen. */
export interface ServeHttpOptions extends Omit<McpHttpOptions, 'app'> {
  /** Interface to bind (default 127.0.0.1: loopback only). */
  host?: string;
  /** Port (default 3000; 0 picks a free one). */
  port?: number;
  /** Also log one line per HTTP request, as Fastify does (default false: mcpkit logs one per MCP request). */
  requestLogging?: boolean;
}

/** A running standalone server. */
export interface HttpServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  readonly port: number;
  /** The Fastify instance inside, for adding routes (health checks …) or hooks. */
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
export async function serveHttp(app: McpApp, options: ServeHttpOptions = {}): Promise<HttpServer> {
  const { host = '127.0.0.1', port = 3000, requestLogging = false, ...pluginOptions } = options;
  const fastify = Fastify({
    loggerInstance: app.logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: !requestLogging }),
    bodyLimit: pluginOptions.bodyLimit ?? 4 * 1024 * 1024,
    forceCloseConnections: true,
  });
  await fastify.register(mcpkit, { ...pluginOptions, app });
  await fastify.listen({ host, port });
  const address = fastify.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${urlHost}:${boundPort}${pluginOptions.path ?? '/mcp'}`,
    port: boundPort,
    fastify,
    close: () => fastify.close(),
  };
}
