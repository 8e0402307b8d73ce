import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HttpServerProcess } from '@mcpkit/testing';
import { text, VALID as BASE } from './support';

const MAIN = join(__dirname, '..', 'dist', 'main.js');

// Another valid input than the stdio tests use: other role, no tags, the lowest priority.
const VALID = { ...BASE, role: 'viewer', active: false, tags: [], priority: 1 };

describe.each(['stateful', 'stateless'])('testbed over Streamable HTTP (%s) with the official SDK client', (mode) => {
  let server: HttpServerProcess;
  let client: Client;
  let transport: StreamableHTTPClientTransport;

  beforeAll(async () => {
    server = await HttpServerProcess.start(process.execPath, [MAIN, 'http'], { MCP_HTTP_MODE: mode, LOG_LEVEL: 'info' });
    client = new Client({ name: 'http-e2e', version: '1.0.0' });
    transport = new StreamableHTTPClientTransport(new URL(server.url));
    await client.connect(transport);
  });

  afterAll(async () => {
    await client.close();
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  });

  it(`${mode === 'stateful' ? 'issues' : 'issues no'} session id and lists the seven tools`, async () => {
    if (mode === 'stateful') expect(transport.sessionId).toBeDefined();
    else expect(transport.sessionId).toBeUndefined();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'add', 'validate', 'fail', 'slow', 'shapes', 'limited']);
  });

  it('calls every tool, reads the resource and gets the prompt', async () => {
    expect(text(await client.callTool({ name: 'echo', arguments: { text: 'über' } }))).toBe('über');
    expect(text(await client.callTool({ name: 'add', arguments: { a: 40, b: 2 } }))).toBe('42');
    expect(text(await client.callTool({ name: 'validate', arguments: VALID }))).toBe('valid:Ada:36:0:12345:-');
    const invalid = await client.callTool({ name: 'validate', arguments: { ...VALID, age: 200, email: 'x' } });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toContain('age:');
    expect((await client.callTool({ name: 'fail', arguments: {} })).isError).toBe(true);
    expect(text(await client.callTool({ name: 'slow', arguments: { ms: 20 } }))).toBe('slept 20');
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    expect((await client.readResource({ uri: 'test://static' })).contents[0]).toMatchObject({ text: 'static resource content' });
    expect(JSON.stringify((await client.getPrompt({ name: 'greet', arguments: { name: 'Lin' } })).messages)).toContain('Lin');
  });

  it('runs calls concurrently', async () => {
    // Twenty calls that take a minute each are all in flight, and one more is answered meanwhile:
    // a server that ran them one at a time could not answer it before they end.
    const controller = new AbortController();
    let settled = 0;
    const blockers = Array.from({ length: 20 }, (_, i) =>
      client.callTool({ name: 'slow', arguments: { ms: 60_000 + i } }, undefined, { signal: controller.signal }).finally(() => void settled++),
    );
    expect(text(await client.callTool({ name: 'slow', arguments: { ms: 20 } }))).toBe('slept 20');
    expect(settled).toBe(0);
    controller.abort();
    const outcomes = await Promise.allSettled(blockers);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(Array(20).fill('rejected'));
  });
});
