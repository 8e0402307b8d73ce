// First: the modules loaded after it reuse their compiled code from the previous start (Node ≥ 22.1).
import '@mcpkit/core/compile-cache';
import { serveStdio } from '@mcpkit/stdio';
import { createTestbedApp } from './app';
import { startTelemetry } from './telemetry';

const mode = process.argv[2] ?? 'stdio';
const app = createTestbedApp();

if (mode === 'stdio' && !process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
  serveStdio(app);
} else if (mode === 'stdio') {
  // With telemetry, exit only once it is flushed.
  void startTelemetry().then((flush) => {
    const server = serveStdio(app, { exitProcess: false });
    let exiting: Promise<void> | undefined;
    const exit = () =>
      void (exiting ??= server
        .close()
        .then(flush)
        .finally(() => process.exit(0)));
    process.once('SIGTERM', exit);
    process.once('SIGINT', exit);
    void server.closed.then(exit);
  });
} else if (mode === 'http' || mode === 'fetch') {
  const sessions = (process.env.MCP_HTTP_MODE ?? 'stateful') !== 'stateless';
  const responseMode = (process.env.MCP_RESPONSE_MODE ?? 'auto') as 'auto' | 'json' | 'sse';
  const host = process.env.HOST ?? '127.0.0.1';
  const port = Number(process.env.PORT ?? 3000);
  // Loaded only in HTTP modes: stdio servers should not pay for Fastify at start-up. `fetch`
  // serves the same surface through the web-standard binding, on node:http.
  // Telemetry first: the Fastify instrumentation sees only instances created after it.
  const flushing = startTelemetry();
  // REDIS_URL (the bench's scale-out rows): sessions, resumable streams and routing in Redis.
  const redisUrl = process.env.REDIS_URL;
  const scaling = redisUrl
    ? import('@mcpkit/redis').then(async ({ redisScaleOut }) => {
        const scale = redisScaleOut({ url: redisUrl, prefix: process.env.REDIS_PREFIX ?? 'mcpkit-testbed:' });
        await scale.ready();
        return scale;
      })
    : Promise.resolve(undefined);
  const started = Promise.all([flushing, scaling]).then(([, scale]) =>
    mode === 'http'
      ? import('@mcpkit/fastify').then(({ serveHttp }) => serveHttp(app, { host, port, sessions, responseMode, ...scale?.http }))
      : Promise.all([import('@mcpkit/http'), import('./fetch-server.js')]).then(async ([{ createFetchHandler }, { serveFetch }]) => {
          const handler = createFetchHandler(app, { sessions, responseMode, ...scale?.http });
          const server = await serveFetch(handler, host, port);
          return { url: server.url, close: () => handler.close().then(() => server.close()) };
        }),
  );
  started
    .then((server) => {
      const stop = () =>
        void server
          .close()
          .then(async () => (await scaling)?.close())
          .then(async () => (await flushing)?.())
          .then(() => process.exit(0));
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      app.logger.info({ url: server.url, sessions }, 'testbed listening');
    })
    .catch((error: unknown) => {
      app.logger.fatal({ err: error }, 'testbed could not start');
      process.exit(1);
    });
} else {
  process.stderr.write(`testbed: unknown mode "${mode}"; use "stdio", "http" or "fetch"\n`);
  process.exit(2);
}
