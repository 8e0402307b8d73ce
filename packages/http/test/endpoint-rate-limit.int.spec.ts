import { createApp, Tool } from '@mcpkit/core';
import pino from 'pino';
import { createFetchHandler } from '../src';

// Issue #14: the endpoint-wide rate limit through the fetch binding: keyed by the address the
// server passes (info.remoteAddress), decided before the body is read.
class Tools {
  @Tool({ input: null })
  ping() {
    return 'pong';
  }
}

describe('the endpoint-wide rate limit of createFetchHandler', () => {
  const handler = createFetchHandler(createApp({ name: 't', version: '1', providers: [Tools], logger: pino({ level: 'silent' }) }), {
    rateLimit: { limit: 1, windowMs: 60_000 },
  });
  afterAll(() => handler.close());

  let read = 0;
  const post = (remoteAddress: string) => {
    // A body that counts its reads: a limited request must not pull a byte of it.
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          read++;
          controller.enqueue(new TextEncoder().encode('{'));
          controller.close();
        },
      },
      // Nothing is pulled before someone reads.
      { highWaterMark: 0 },
    );
    const request = new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body,
      duplex: 'half',
    } as RequestInit);
    return handler(request, { remoteAddress });
  };

  it('limits per client address, without reading a limited body', async () => {
    expect((await post('10.0.0.1')).status).toBe(400);
    const readsBefore = read;
    const limited = await post('10.0.0.1');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(read).toBe(readsBefore);
    expect((await post('10.0.0.2')).status).toBe(400);
  });
});
