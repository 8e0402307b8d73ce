import { createApp, Tool } from '@mcpkit/core';
import { createFetchHandler } from '@mcpkit/http';

class Clock {
  @Tool({ description: 'The current time, ISO 8601' })
  now(): string {
    return new Date().toISOString();
  }
}

export const app = createApp({ name: 'clock', version: '1.0.0', providers: [Clock] });

// A web-standard (request: Request) => Promise<Response>: Hono, Bun, Deno, Workers, Next.js.
export const handler = createFetchHandler(app, { path: '/mcp' });
