// The testbed app mounted with the `mcpkit` plugin in a Fastify app of its own (a service with
// other routes): every MCP request goes through Fastify's pipeline (router, hooks, content-type
// parser, reply), where `serveHttp` hands the endpoint's requests to the node:http binding first.
// The row "inside a Fastify app" of `pnpm bench:http-clients`.
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import { createTestbedApp } from '@mcpkit/app-testbed/dist/app';
import { mcpkit } from '@mcpkit/fastify';

const app = createTestbedApp();
const service = Fastify({ loggerInstance: app.logger as FastifyBaseLogger, logController: new LogController({ disableRequestLogging: true }) });
service.get('/health', async () => ({ ok: true }));
void service
  .register(mcpkit, { app, sessions: process.env.MCP_HTTP_MODE !== 'stateless' })
  .then(() => service.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 3000) }));
process.once('SIGTERM', () => void service.close().then(() => process.exit(0)));
