import { serveHttp } from '@mcpkit/fastify';
import { serveStdio } from '@mcpkit/stdio';
import { createEverythingApp } from './app';

const app = createEverythingApp();

if (process.argv[2] === 'stdio') {
  serveStdio(app);
} else {
  serveHttp(app, { host: '127.0.0.1', port: Number(process.env.PORT ?? 3000) })
    .then((server) => {
      const stop = () => void server.close().then(() => process.exit(0));
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      process.stderr.write(`mcpkit everything server listening on ${server.url}\n`);
    })
    .catch((error: unknown) => {
      process.stderr.write(`everything server could not start: ${(error as Error).message}\n`);
      process.exit(1);
    });
}
