import { createApp, Tool } from '@mcpkit/core';
import { serveHttp } from '@mcpkit/fastify';
import { redisScaleOut } from '@mcpkit/redis';

class Greeter {
  constructor(private readonly instanceId: string) {}

  @Tool({ description: 'Says which instance answered', input: null })
  whoami(): string {
    return `served by ${this.instanceId}`;
  }
}

/** One instance; start as many as you need, everywhere with the same Redis, prefix and secret. */
export async function startInstance(redisUrl: string, instanceId: string, port = 0) {
  const scaleOut = redisScaleOut({ url: redisUrl, prefix: 'greeter:', instanceId });
  const app = createApp({
    name: 'greeter',
    version: '1.0.0',
    providers: [new Greeter(instanceId)],
    bus: scaleOut.bus, // list changes and resource updates reach every instance
    rateLimitStore: scaleOut.rateLimitStore, // a limit holds across instances, not per instance
    requestStateSecret: process.env.MCP_REQUEST_STATE_SECRET, // 2026-07-28 rounds may land anywhere
    requestStateStore: scaleOut.requestStateStore, // … and each exchange completes once among them
  });
  await scaleOut.ready(); // rejects when Redis cannot be reached at start-up
  const server = await serveHttp(app, { port, ...scaleOut.http }); // sessions, streams, router
  return {
    url: server.url,
    close: async () => {
      await server.close(); // first the HTTP server, then Redis
      await scaleOut.close();
    },
  };
}
