import { join } from 'node:path';
import { ClientErrorCode, McpClient } from '../src';
import { serverUnderTest, type ServerUnderTest } from './support/server-target';

// @mcpkit/client against a server written with the official SDK (v1 McpServer), which speaks
// only the legacy era: era auto asks server/discover, is refused, and falls back to initialize.
const SERVER = join(__dirname, 'fixtures', 'sdk-server.js');

/** Both official servers have `slow` (sleeps until cancelled) and `echo`. */
async function cancelsSlowCall(client: McpClient): Promise<void> {
  const controller = new AbortController();
  const call = client.callTool('slow', { ms: 20_000 }, { signal: controller.signal });
  setTimeout(() => controller.abort(), 50);
  await expect(call).rejects.toMatchObject({ code: ClientErrorCode.RequestCancelled });
  expect((await client.callTool('echo', { text: 'still here' })).content).toEqual([{ type: 'text', text: 'still here' }]);
}

describe.each(['stdio', 'http'] as const)('@mcpkit/client and an official SDK server over %s', (transport) => {
  let server: ServerUnderTest | undefined;
  let client: McpClient;

  beforeAll(async () => {
    server = await serverUnderTest(SERVER, transport);
    client = await McpClient.connect(server.target, {
      handlers: {
        'elicitation/create': () => ({ action: 'accept', content: { name: 'Ada' } }),
        'sampling/createMessage': () => ({ role: 'assistant', model: 'stub', content: { type: 'text', text: '4' } }),
        'roots/list': () => ({ roots: [{ uri: 'file:///work' }] }),
      },
    });
  });

  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it('falls back to initialize and negotiates the newest legacy revision', () => {
    expect(client.era).toBe('legacy');
    expect(client.server).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: 'sdk-example', version: '1.0.0' } });
    if (transport === 'http') expect((client.transport as unknown as { session: string }).session).toEqual(expect.any(String));
  });

  it('lists and calls tools, reads the resource, gets the prompt', async () => {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'count', 'ask', 'think', 'roots', 'slow']);
    expect(await client.callTool('echo', { text: 'hi' })).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    expect((await client.readResource('test://static')).contents).toEqual([{ uri: 'test://static', mimeType: 'text/plain', text: 'static resource content' }]);
    expect((await client.getPrompt('greet', { name: 'Ada' })).messages[0].content).toEqual({ type: 'text', text: 'Please greet Ada warmly.' });
  });

  it('gets progress, and answers elicitation, sampling and roots', async () => {
    const seen: number[] = [];
    expect((await client.callTool('count', {}, { onProgress: (progress) => seen.push(progress.progress) })).content).toEqual([
      { type: 'text', text: 'counted' },
    ]);
    expect(seen).toEqual([1, 2, 3]);
    expect((await client.callTool('ask')).content).toEqual([{ type: 'text', text: 'accept:Ada' }]);
    expect((await client.callTool('think')).content).toEqual([{ type: 'text', text: '4' }]);
    expect((await client.callTool('roots')).content).toEqual([{ type: 'text', text: 'file:///work' }]);
  });

  it('cancels a slow call, and the server goes on', () => cancelsSlowCall(client));
});

// The official SDK v2 server (`@modelcontextprotocol/server` 2.4, dual-era): apps/bench builds one
// (src/servers/sdk2-server.ts: echo, add, fail, slow), served over stdio and HTTP. Era auto finds
// 2026-07-28 through server/discover; era legacy still opens it with initialize.
const SDK2 = join(__dirname, '..', '..', '..', 'apps', 'bench', 'dist', 'servers', 'sdk2-server.js');

describe.each([
  ['stdio', 'auto'],
  ['http', 'auto'],
  ['stdio', 'legacy'],
  ['http', 'legacy'],
] as const)('@mcpkit/client and the official SDK v2 server over %s, era %s', (transport, era) => {
  let server: ServerUnderTest | undefined;
  let client: McpClient;

  beforeAll(async () => {
    server = await serverUnderTest(SDK2, transport);
    client = await McpClient.connect(server.target, { era });
  });

  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it('opens the newest revision of the era and calls tools', async () => {
    expect(client.server).toMatchObject({ protocolVersion: era === 'auto' ? '2026-07-28' : '2025-11-25', serverInfo: { name: 'sdk2-testbed' } });
    expect((await client.callTool('add', { a: 2, b: 3 })).content).toEqual([{ type: 'text', text: '5' }]);
    expect((await client.callTool('fail')).isError).toBe(true);
    await expect(client.callTool('echo', { text: 7 })).resolves.toMatchObject({ isError: true });
  });

  it('cancels a slow call, and the server goes on', () => cancelsSlowCall(client));
});
