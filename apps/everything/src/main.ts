// First: the modules loaded after it reuse their compiled code from the previous start (Node ≥ 22.1).
import '@mcpkit/core/compile-cache';
import { serveStdio } from '@mcpkit/stdio';
import { createEverythingApp } from './app';
import { DynamicCapabilities } from './dynamic';

const app = createEverythingApp({ pageSize: process.env.PAGE_SIZE ? Number(process.env.PAGE_SIZE) : undefined });

/**
 * Like the conformance fixture: more capabilities appear two seconds after the server starts
 * serving (counted from then, not from process start, so a slow start on a loaded machine does not
 * eat a client's time to connect; tests set DYNAMIC_AFTER_MS for more margin), and the watched
 * resource changes every three seconds.
 */
function startChanges(): void {
  setTimeout(() => app.addProviders([DynamicCapabilities]), Number(process.env.DYNAMIC_AFTER_MS ?? 2_000)).unref();
  setInterval(() => app.resourceUpdated('test://watched-resource'), 3_000).unref();
}

if (process.argv[2] === 'stdio') {
  serveStdio(app);
  startChanges();
} else {
  // Always SSE, like the suite's reference fixture: the multiple-streams scenario only scores
  // streams, and JSON answers (mcpkit's default for calls that stream nothing) would leave it INFO.
  import('@mcpkit/fastify')
    .then(({ serveHttp }) => serveHttp(app, { host: '127.0.0.1', port: Number(process.env.PORT ?? 3000), responseMode: 'sse' }))
    .then((server) => {
      const stop = () => void server.close().then(() => process.exit(0));
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      process.stderr.write(`mcpkit everything server listening on ${server.url}\n`);
      startChanges();
    })
    .catch((error: unknown) => {
      process.stderr.write(`everything server could not start: ${(error as Error).message}\n`);
      process.exit(1);
    });
}
