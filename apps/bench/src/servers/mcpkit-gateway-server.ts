// The proxied row of pnpm bench (#30): a gateway whose `echo` is @mcpkit/proxy onto
// mcpkit-auth-server.js (the direct row's server, plain echo) spawned over stdio, mounted and
// renamed back to `echo` as the mounted row is. Same arguments as the testbed (`stdio` | `http`,
// PORT, HOST). The bench counts the CPU of this process and of the remote it spawned.
import 'reflect-metadata';
import { join } from 'node:path';
import { createApp } from '@mcpkit/core';
import { proxy } from '@mcpkit/proxy';
import { serveStdio } from '@mcpkit/stdio';

const mode = process.argv[2] ?? 'stdio';

void (async () => {
  // The remote inherits this environment (LOG_LEVEL=warn under the bench); its stderr is read, kept short.
  const upstream = await proxy(
    { command: process.execPath, args: [join(__dirname, 'mcpkit-auth-server.js'), 'stdio'], stderr: 'pipe' },
    { onError: (error) => process.stderr.write(`bench gateway: ${error.message}\n`) },
  );
  const app = createApp({
    name: 'bench-proxy-gateway',
    version: '1.0.0',
    providers: [],
    imports: [{ app: upstream.app, prefix: 'bench' }],
    transforms: [{ tool: 'bench_echo', name: 'echo' }],
  });
  if (mode === 'stdio') {
    serveStdio(app);
    // The bench ends stdin: the remote goes with the gateway.
    process.stdin.once('end', () => void upstream.close());
    return;
  }
  const { serveHttp } = await import('@mcpkit/fastify');
  const server = await serveHttp(app, { host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 3000) });
  const stop = () => void Promise.all([server.close(), upstream.close()]).then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
})();
