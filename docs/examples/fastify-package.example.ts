import { createApp, Tool } from '@mcpkit/core';
import { serveHttp } from '@mcpkit/fastify';

class Clock {
  @Tool({ description: 'The current time, ISO 8601' })
  now(): string {
    return new Date().toISOString();
  }
}

const app = createApp({ name: 'clock', version: '1.0.0', providers: [Clock] });

// Standalone Streamable HTTP on 127.0.0.1 (loopback only by default); `mcpkit` mounts it on a Fastify you already run.
void serveHttp(app, { port: 3000 }).then((server) => process.stderr.write(`MCP endpoint: ${server.url}\n`));
