import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createApp, defineTool, type McpApp, type RequestContext } from '@mcpkit/core';
import { serveHttp, type HttpServer } from '@mcpkit/fastify';
import { TestClient } from '@mcpkit/testing';
import { proxy, type McpProxy } from '../src';

// A remote of this process (so the test sees what it was sent) on a loopback socket, proxied and
// mounted by a gateway served over HTTP too, driven by the official SDK client: cancellation and
// trace context cross the hop, a remote's list change reaches the SDK client, and a question of
// the remote that belongs to no call the gateway serves is refused, not hung.
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('a proxied remote behind a gateway, driven by the official SDK client', () => {
  const seen: { cancelled: number; traceparents: Array<string | undefined> } = { cancelled: 0, traceparents: [] };
  let remoteApp: McpApp;
  let remote: HttpServer;
  let mirror: McpProxy;
  let gateway: HttpServer;
  let sdk: Client;

  beforeAll(async () => {
    remoteApp = createApp({
      name: 'remote',
      version: '1.0.0',
      dynamic: true,
      providers: [
        defineTool({ name: 'wait', description: 'Waits until cancelled.' }, (_input, ctx: RequestContext) => {
          seen.traceparents.push(ctx.trace?.traceparent);
          return new Promise<string>((resolve) =>
            ctx.signal.addEventListener('abort', () => {
              seen.cancelled += 1;
              resolve('cancelled');
            }),
          );
        }),
      ],
    });
    remote = await serveHttp(remoteApp, { host: '127.0.0.1', port: 0 });
    mirror = await proxy({ url: remote.url }, { client: { era: 'legacy' } });
    const app = createApp({ name: 'gateway', version: '1.0.0', providers: [], imports: [{ app: mirror.app, prefix: 'remote' }] });
    gateway = await serveHttp(app, { host: '127.0.0.1', port: 0 });
    sdk = new Client({ name: 'sdk', version: '1.0.0' });
    await sdk.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
  });

  afterAll(async () => {
    await sdk?.close();
    await gateway?.close();
    await mirror?.close();
    await remote?.close();
  });

  it("cancels the remote's call when the gateway's caller cancels, and passes its traceparent on", async () => {
    const controller = new AbortController();
    const call = sdk.callTool({ name: 'remote_wait', arguments: {}, _meta: { traceparent: TRACEPARENT } }, undefined, { signal: controller.signal });
    await until(() => seen.traceparents.length === 1);
    expect(seen.traceparents).toEqual([TRACEPARENT]);
    controller.abort('enough');
    await expect(call).rejects.toThrow();
    await until(() => seen.cancelled === 1);
  });

  it("relays the remote's list change to the SDK client, which lists the new tool", async () => {
    let heard = 0;
    sdk.setNotificationHandler((await import('@modelcontextprotocol/sdk/types.js')).ToolListChangedNotificationSchema, () => void (heard += 1));
    remoteApp.addProviders([defineTool({ name: 'added', description: 'Added at run time.' }, () => 'added here')]);
    await until(() => heard > 0);
    const { tools } = await sdk.listTools();
    expect(tools.map((tool) => tool.name)).toContain('remote_added');
    expect(await sdk.callTool({ name: 'remote_added', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'added here' }] });
  });
});

describe('a proxied HTTP remote that goes away', () => {
  it('waits longer before each failed reconnect (capped), then reconnects and lists again', async () => {
    const waits: number[] = [];
    const waiting: Array<() => void> = [];
    const timers = {
      setTimeout: (callback: () => void, ms: number) => (waits.push(ms), waiting.push(callback), callback),
      clearTimeout: () => undefined,
    };
    const make = () => createApp({ name: 'remote', version: '1.0.0', providers: [defineTool({ name: 'echo', description: 'Echoes.' }, () => 'echoed')] });
    let remote = await serveHttp(make(), { host: '127.0.0.1', port: 0 });
    const port = new URL(remote.url).port;
    const errors: Error[] = [];
    const mirror = await proxy({ url: remote.url }, { timers, reconnectDelayMs: 100, maxReconnectDelayMs: 250, onError: (error) => void errors.push(error) });
    try {
      await remote.close();
      // The first call finds nobody listening: a clear error result, and a reconnect is scheduled.
      const direct = await TestClient.connect(mirror.app);
      const failed = await direct.callTool('echo');
      direct.close();
      expect(failed).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('tool echo: the upstream server failed') }] });
      expect(mirror.client).toBeUndefined();
      for (let attempt = 0; attempt < 3; attempt++) {
        await until(() => waiting.length > 0);
        waiting.shift()!();
        await until(() => waiting.length > 0);
      }
      expect(waits).toEqual([100, 200, 250, 250]);
      remote = await serveHttp(make(), { host: '127.0.0.1', port: Number(port) });
      waiting.shift()!();
      await until(() => mirror.client !== undefined);
      const again = await TestClient.connect(mirror.app);
      expect(await again.callTool('echo')).toMatchObject({ content: [{ type: 'text', text: 'echoed' }] });
      again.close();
      expect(errors.length).toBeGreaterThanOrEqual(4);
    } finally {
      await mirror.close();
      await remote.close();
    }
  });
});
