import { createApp, Tool } from '@mcpkit/core';
import { serveHttp } from '@mcpkit/fastify';
import { redisScaleOut } from '@mcpkit/redis';

class Clock {
  @Tool({ description: 'The current time, ISO 8601' })
  now(): string {
    return new Date().toISOString();
  }
}

/** One instance of several behind a load balancer: same REDIS_URL, prefix and secret on each. */
export async function startInstance(redisUrl: string, port: number) {
  const scaleOut = redisScaleOut({ url: redisUrl, prefix: 'clock:' });
  const app = createApp({
    name: 'clock',
    version: '1.0.0',
    providers: [Clock],
    bus: scaleOut.bus,
    rateLimitStore: scaleOut.rateLimitStore,
    tasks: { store: scaleOut.taskStore },
    // 2026-07-28 input-required rounds may come back to any instance, and complete once.
    requestStateSecret: process.env.MCP_REQUEST_STATE_SECRET,
    requestStateStore: scaleOut.requestStateStore,
  });
  await scaleOut.ready();
  const server = await serveHttp(app, { port, ...scaleOut.http });
  return {
    url: server.url,
    close: async () => {
      await server.close();
      await scaleOut.close();
    },
  };
}
