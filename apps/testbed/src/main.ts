// First: the modules loaded after it reuse their compiled code from the previous start (Node ≥ 22.1).
import '@mcpkit/core/compile-cache';
import { serveStdio } from '@mcpkit/stdio';
import { createTestbedApp } from './app';

const mode = process.argv[2] ?? 'stdio';
const app = createTestbedApp();

if (mode === 'stdio') {
  serveStdio(app);
} else if (mode === 'http') {
  const sessions = (process.env.MCP_HTTP_MODE ?? 'stateful') !== 'stateless';
  // Loaded only in http mode: stdio servers should not pay for Fastify at start-up.
  import('@mcpkit/fastify')
    .then(({ serveHttp }) => serveHttp(app, { host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 3000), sessions }))
    .then((server) => {
      const stop = () => void server.close().then(() => process.exit(0));
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      app.logger.info({ url: server.url, sessions }, 'testbed listening');
    })
    .catch((error: unknown) => {
      app.logger.fatal({ err: error }, 'testbed could not start');
      process.exit(1);
    });
} else {
  process.stderr.write(`testbed: unknown mode "${mode}"; use "stdio" or "http"\n`);
  process.exit(2);
}
