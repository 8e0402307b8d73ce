import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createApp, Tool, type RequestContext } from '@mcpkit/core';
import pino from 'pino';
import { createFetchHandler, MemoryEventStore, MemorySessionStore, type FetchHandler } from '../src';
import { MemoryRouterHub } from './support/memory-session-router';

// Two instances serve one session (scale-out): each keeps the session's roots. A change the client
// sends to one must reach the other's copy too, and the app's hook runs once.

class Where {
  @Tool({ input: null })
  async where(_input: unknown, ctx: RequestContext) {
    return (await ctx.roots()).map((root) => root.uri).join(',');
  }
}

describe('roots that change, on a session two instances serve', () => {
  const handlers: Record<'a' | 'b', FetchHandler | undefined> = { a: undefined, b: undefined };

  afterEach(async () => {
    await Promise.all([handlers.a?.close(), handlers.b?.close()]);
  });

  it('drops the kept roots on every instance, and runs the hook once, where the change arrived', async () => {
    const hub = new MemoryRouterHub();
    const sessionStore = new MemorySessionStore();
    const eventStore = new MemoryEventStore();
    const changes: string[] = [];
    for (const instance of ['a', 'b'] as const) {
      const app = createApp({
        name: 'where',
        version: '1',
        providers: [Where],
        logger: pino({ level: 'silent' }),
        onRootsChanged: () => void changes.push(instance),
      });
      handlers[instance] = createFetchHandler(app, { sessionStore, eventStore, router: hub.router(instance), standaloneStream: false });
    }
    // The client's requests go to the instance `at` names, as a load balancer would send them.
    let at: 'a' | 'b' = 'a';
    const fetchVia = (url: string | URL, init?: RequestInit) => handlers[at]!(new Request(url, init));
    let roots = [{ uri: 'file:///one' }];
    let asked = 0;
    const client = new Client({ name: 'roots', version: '1' }, { capabilities: { roots: { listChanged: true } } });
    client.setRequestHandler(ListRootsRequestSchema, async () => (asked++, { roots }));
    await client.connect(new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), { fetch: fetchVia }));
    const where = async () => ((await client.callTool({ name: 'where', arguments: {} })).content as Array<{ text: string }>)[0].text;

    expect(await where()).toBe('file:///one');
    at = 'b';
    expect(await where()).toBe('file:///one');
    expect(await where()).toBe('file:///one');
    expect(asked).toBe(2); // once per instance

    roots = [{ uri: 'file:///two' }];
    at = 'a';
    await client.sendRootsListChanged();
    expect(changes).toEqual(['a']);
    at = 'b';
    expect(await where()).toBe('file:///two');
    at = 'a';
    expect(await where()).toBe('file:///two');
    expect(asked).toBe(4);
    expect(changes).toEqual(['a']);
    await client.close();
  });
});
