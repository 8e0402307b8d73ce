import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { HttpServerProcess } from '@mcpkit/testing';
import { text, VALID } from './support';

// The official v2 client pinned to 2026-07-28: no initialize, `_meta` on every request.
const MAIN = join(__dirname, '..', 'dist', 'main.js');
const ENV = { ...process.env, LOG_LEVEL: 'warn' } as Record<string, string>;
const MODERN = '2026-07-28';

/** Records every message the client sends, so tests can check what went over the wire. */
function recording<T extends Transport>(transport: T): { transport: T; sent: Array<{ method?: string; params?: Record<string, unknown> }> } {
  const sent: Array<{ method?: string; params?: Record<string, unknown> }> = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    sent.push(message as (typeof sent)[number]);
    return send(message, options);
  };
  return { transport, sent };
}

type Target = { name: string; open(): Promise<Transport>; close(): Promise<void> };

const stdio: Target = {
  name: 'stdio',
  open: async () => new StdioClientTransport({ command: process.execPath, args: [MAIN, 'stdio'], env: ENV, stderr: 'pipe' }),
  close: async () => undefined,
};

let server: HttpServerProcess | undefined;
const http: Target = {
  name: 'Streamable HTTP',
  async open() {
    server = await HttpServerProcess.start(process.execPath, [MAIN, 'http'], { LOG_LEVEL: 'info' });
    return new StreamableHTTPClientTransport(new URL(server.url));
  },
  async close() {
    expect(await server?.stop()).toEqual({ code: 0, signal: null });
  },
};

describe.each([stdio, http])('testbed over $name with the official v2 client, 2026-07-28 pinned', (target) => {
  let client: Client;
  let sent: ReturnType<typeof recording>['sent'];

  beforeAll(async () => {
    client = new Client({ name: 'modern-e2e', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
    const recorded = recording(await target.open());
    sent = recorded.sent;
    await client.connect(recorded.transport);
  });

  afterAll(async () => {
    await client.close();
    await target.close();
  });

  it('discovers the server instead of initializing', () => {
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getServerVersion()).toEqual({ name: 'mcpkit-testbed', version: '0.1.0' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    // Over stdio the SDK probes with server/discover on a sibling process, so this one may see none.
    expect(sent.map((message) => message.method)).toEqual(target === http ? ['server/discover'] : expect.not.arrayContaining(['initialize']));
  });

  it('lists the seven tools with the schemas the handshake era publishes', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['echo', 'add', 'validate', 'fail', 'slow', 'shapes', 'limited']);
    expect(tools[2].inputSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['email', 'priority']) });
  });

  it('calls tools, reads the resource and gets the prompt, each request carrying its own _meta', async () => {
    expect(text(await client.callTool({ name: 'echo', arguments: { text: 'über ✓' } }))).toBe('über ✓');
    expect(text(await client.callTool({ name: 'add', arguments: { a: 40, b: 2 } }))).toBe('42');
    expect(text(await client.callTool({ name: 'validate', arguments: VALID }))).toBe('valid:Ada:36:2:12345:-');
    const read = await client.readResource({ uri: 'test://static' });
    expect(read.contents).toEqual([{ uri: 'test://static', mimeType: 'text/plain', text: 'static resource content' }]);
    expect(read).toMatchObject({ cacheScope: 'private', ttlMs: 0 });
    const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
    expect(prompt.messages[0].content).toMatchObject({ type: 'text', text: expect.stringContaining('Ada') });

    const requests = sent.filter((message) => message.method !== undefined && message.method !== 'server/discover');
    expect(requests.length).toBeGreaterThanOrEqual(5);
    for (const request of requests) {
      expect(request.params?._meta).toMatchObject({
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientInfo': { name: 'modern-e2e' },
      });
    }
    expect(sent.some((message) => message.method === 'initialize')).toBe(false);
  });

  it('answers bad input clearly and keeps serving', async () => {
    const invalid = await client.callTool({ name: 'validate', arguments: { ...VALID, age: 200, email: 'nope' } });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toMatch(/age/);
    expect(text(invalid)).toMatch(/email/);
    const failed = await client.callTool({ name: 'fail', arguments: {} });
    expect(failed.isError).toBe(true);
    expect(text(failed)).not.toMatch(/\n\s+at /);
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await expect(client.readResource({ uri: 'test://missing' })).rejects.toMatchObject({ code: -32602 });
    await expect(client.getPrompt({ name: 'greet', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    expect(text(await client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe('still here');
  });

  it('gives up a slow call on abort and stays usable', async () => {
    const controller = new AbortController();
    const pending = client.callTool({ name: 'slow', arguments: { ms: 10_000 } }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toThrow();
    expect(text(await client.callTool({ name: 'slow', arguments: { ms: 1 } }))).toBe('slept 1');
  });
});
