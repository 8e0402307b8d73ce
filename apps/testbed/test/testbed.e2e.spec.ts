import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { RawStdioClient } from '@mcpkit/testing';
import { text, VALID } from './support';

// Drives the built server (`pnpm test` builds first) as a real child process.
const MAIN = join(__dirname, '..', 'dist', 'main.js');
const ENV = { ...process.env, LOG_LEVEL: 'warn' } as Record<string, string>;

const VALIDATE_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 64 },
    email: { type: 'string', format: 'email' },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    score: { type: 'number', minimum: 0, maximum: 100 },
    role: { type: 'string', enum: ['admin', 'editor', 'viewer'] },
    active: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 20 },
    address: {
      type: 'object',
      properties: { street: { type: 'string', minLength: 1 }, city: { type: 'string', minLength: 1 }, zip: { type: 'string', pattern: '^[0-9]{5}$' } },
      required: ['street', 'city', 'zip'],
    },
    nickname: { type: 'string', maxLength: 32 },
    priority: { type: 'integer', minimum: 1, maximum: 5 },
  },
  required: ['name', 'email', 'age', 'score', 'role', 'active', 'tags', 'address', 'priority'],
};

describe('testbed over stdio with the official SDK client', () => {
  let client: Client;

  beforeAll(async () => {
    client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN, 'stdio'], env: ENV, stderr: 'pipe' }));
  });

  afterAll(async () => {
    await client.close();
  });

  it('negotiates the latest revision and reports the server', () => {
    expect(client.getServerVersion()).toEqual({ name: 'mcpkit-testbed', version: '0.1.0' });
    expect(client.getServerCapabilities()).toEqual({ tools: {}, resources: {}, prompts: {} });
  });

  it('lists the tools (snapshot), with the validate schema of testbed.md', async () => {
    const { tools } = await client.listTools();
    expect(tools).toMatchSnapshot();
    expect(tools.map((tool) => tool.name)).toEqual(['echo', 'add', 'validate', 'fail', 'slow', 'shapes', 'limited']);
    expect(tools.find((tool) => tool.name === 'validate')!.inputSchema).toEqual(VALIDATE_SCHEMA);
  });

  it('calls echo, add and validate', async () => {
    expect(text(await client.callTool({ name: 'echo', arguments: { text: 'héllo ✓ "quoted"\nnext' } }))).toBe('héllo ✓ "quoted"\nnext');
    expect(text(await client.callTool({ name: 'add', arguments: { a: 2.5, b: -1 } }))).toBe('1.5');
    expect(text(await client.callTool({ name: 'validate', arguments: VALID }))).toBe('valid:Ada:36:2:12345:-');
    expect(text(await client.callTool({ name: 'validate', arguments: { ...VALID, nickname: 'Countess' } }))).toBe('valid:Ada:36:2:12345:Countess');
  });

  it.each([
    ['a bad email', { email: 'not-an-email' }, 'email'],
    ['age 200', { age: 200 }, 'age'],
    ['age 3.5', { age: 3.5 }, 'age'],
    ['role "root"', { role: 'root' }, 'role'],
    ['zip "abcde"', { address: { street: 's', city: 'c', zip: 'abcde' } }, 'address.zip'],
    ['an empty tag', { tags: ['ok', ''] }, 'tags[1]'],
    ['an empty name', { name: '' }, 'name'],
    ['age "30"', { age: '30' }, 'age'],
    ['an address without city', { address: { street: 's', zip: '12345' } }, 'address.city'],
  ])('rejects %s before the handler, naming the field', async (_, change, field) => {
    const result = await client.callTool({ name: 'validate', arguments: { ...VALID, ...change } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(`- ${field}:`);
  });

  it('rejects a missing priority', async () => {
    const { priority: _priority, ...rest } = VALID;
    const result = await client.callTool({ name: 'validate', arguments: rest });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('priority: is required');
  });

  it('turns a throwing handler into an isError result without internals', async () => {
    const result = await client.callTool({ name: 'fail', arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).not.toMatch(/at |\.js|stack/);
  });

  it('runs slow and answers an unknown tool with -32602', async () => {
    expect(text(await client.callTool({ name: 'slow', arguments: { ms: 10 } }))).toBe('slept 10');
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toBeInstanceOf(McpError);
  });

  it('reads the resource and gets the prompt', async () => {
    expect((await client.listResources()).resources).toEqual([
      { uri: 'test://static', name: 'static', description: 'A fixed text resource', mimeType: 'text/plain' },
    ]);
    expect(await client.readResource({ uri: 'test://static' })).toEqual({
      contents: [{ uri: 'test://static', mimeType: 'text/plain', text: 'static resource content' }],
    });
    const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'Grace' } });
    expect(JSON.stringify(prompt.messages)).toContain('Grace');
    await expect(client.getPrompt({ name: 'greet', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  it('cancels through the SDK (AbortSignal) and keeps serving', async () => {
    const controller = new AbortController();
    const call = client.callTool({ name: 'slow', arguments: { ms: 30_000 } }, undefined, { signal: controller.signal });
    setTimeout(() => controller.abort('changed my mind'), 50);
    await expect(call).rejects.toThrow();
    expect(text(await client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe('still here');
  });
});

describe('testbed over stdio with a raw client', () => {
  let server: RawStdioClient;

  beforeEach(async () => {
    server = RawStdioClient.spawn(process.execPath, [MAIN, 'stdio'], ENV);
    await server.initialize();
  });

  afterEach(() => {
    expect(server.stray).toEqual([]);
    server.kill();
  });

  it.each([
    ['garbage', 'this is not json', -32700],
    ['half an object', '{"jsonrpc":"2.0","id":1,', -32700],
    ['a wrong jsonrpc', '{"jsonrpc":"1.0","id":"w","method":"ping"}', -32600],
    ['id null', '{"jsonrpc":"2.0","id":null,"method":"ping"}', -32600],
    ['no method', '{"jsonrpc":"2.0","id":"m"}', -32600],
    ['a batch', '[{"jsonrpc":"2.0","id":"b","method":"ping"}]', -32600],
  ])('answers %s and keeps serving', async (_, line, code) => {
    server.writeLine(line);
    const answer = await server.waitFor((message) => message.error !== undefined);
    expect((answer.error as { code: number }).code).toBe(code);
    expect(await server.request('ping')).toMatchObject({ result: {} });
  });

  it('answers an unknown method with -32601 and the same id, bad params with -32602', async () => {
    expect(await server.request('no/such/method')).toMatchObject({ error: { code: -32601 } });
    expect(await server.request('tools/call', { name: 'echo', arguments: 'str' })).toMatchObject({ error: { code: -32602 } });
    expect(await server.request('tools/call', { name: 'nope', arguments: {} })).toMatchObject({ error: { code: -32602 } });
  });

  it('sends nothing for a notification', async () => {
    server.send({ jsonrpc: '2.0', method: 'notifications/something' });
    const before = server.messages.length;
    await server.request('ping');
    expect(server.messages.length).toBe(before + 1);
  });

  it('tolerates CRLF and messages split across writes', async () => {
    const message = JSON.stringify({ jsonrpc: '2.0', id: 'split', method: 'tools/call', params: { name: 'echo', arguments: { text: 'ünïcödé' } } });
    const bytes = Buffer.from(message + '\r\n');
    server.write(bytes.subarray(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 20));
    server.write(bytes.subarray(10, 60));
    server.write(bytes.subarray(60));
    expect(await server.waitFor((m) => m.id === 'split')).toMatchObject({ result: { content: [{ text: 'ünïcödé' }] } });
  });

  it('discards an oversized line with -32600 / id null, keeps serving, and takes multi-megabyte payloads', async () => {
    const big = 'x'.repeat(5 * 1024 * 1024);
    expect(await server.request('tools/call', { name: 'echo', arguments: { text: big } }, 30_000)).toMatchObject({ result: { content: [{ text: big }] } });
    server.writeLine(`{"jsonrpc":"2.0","id":"huge","method":"tools/call","params":{"name":"echo","arguments":{"text":"${'y'.repeat(65 * 1024 * 1024)}"}}}`);
    const answer = await server.waitFor((message) => message.id === null, 30_000);
    expect(answer).toMatchObject({ error: { code: -32600 } });
    expect(await server.request('ping')).toMatchObject({ result: {} });
    expect(server.messages.some((message) => message.id === 'huge')).toBe(false);
  }, 60_000);

  it('answers 1 000 pipelined requests, every id exactly once', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 1000; i++)
      lines.push(JSON.stringify({ jsonrpc: '2.0', id: `p${i}`, method: 'tools/call', params: { name: 'add', arguments: { a: i, b: 1 } } }));
    server.write(lines.join('\n') + '\n');
    await server.waitFor(() => server.messages.filter((message) => typeof message.id === 'string' && message.id.startsWith('p')).length >= 1000, 30_000);
    await server.request('ping');
    const answers = server.messages.filter((message) => typeof message.id === 'string' && message.id.startsWith('p'));
    expect(answers).toHaveLength(1000);
    expect(new Set(answers.map((message) => message.id)).size).toBe(1000);
    for (const answer of answers) {
      const i = Number((answer.id as string).slice(1));
      expect(answer).toMatchObject({ result: { content: [{ text: String(i + 1) }] } });
    }
  });

  it('does not let a slow call block a fast one', async () => {
    server.send({ jsonrpc: '2.0', id: 'slow', method: 'tools/call', params: { name: 'slow', arguments: { ms: 1500 } } });
    server.send({ jsonrpc: '2.0', id: 'fast', method: 'tools/call', params: { name: 'echo', arguments: { text: 'quick' } } });
    await server.waitFor((message) => message.id === 'fast');
    expect(server.messages.some((message) => message.id === 'slow')).toBe(false);
    expect(await server.waitFor((message) => message.id === 'slow')).toMatchObject({ result: { content: [{ text: 'slept 1500' }] } });
  });

  it('stops a cancelled call and never answers it', async () => {
    server.send({ jsonrpc: '2.0', id: 'c', method: 'tools/call', params: { name: 'slow', arguments: { ms: 400 } } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c', reason: 'test' } });
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await server.request('ping')).toMatchObject({ result: {} });
    expect(server.messages.some((message) => message.id === 'c')).toBe(false);
  });

  it('finishes in-flight work on stdin EOF, then exits 0', async () => {
    server.send({ jsonrpc: '2.0', id: 'last', method: 'tools/call', params: { name: 'slow', arguments: { ms: 300 } } });
    const exit = await server.end();
    expect(exit).toEqual({ code: 0, signal: null });
    expect(server.messages.find((message) => message.id === 'last')).toMatchObject({ result: { content: [{ text: 'slept 300' }] } });
  });

  it('exits promptly with code 0 on SIGTERM, even with work in flight', async () => {
    server.send({ jsonrpc: '2.0', id: 'long', method: 'tools/call', params: { name: 'slow', arguments: { ms: 60_000 } } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Waiting out the 60 s call would overrun the test's time limit: no clock needed.
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });
});

describe('testbed with TOOLS=500', () => {
  it('lists 507 tools (the seven of testbed.md and 500 synthetic) and calls a synthetic one', async () => {
    const server = RawStdioClient.spawn(process.execPath, [MAIN, 'stdio'], { ...ENV, TOOLS: '500' });
    try {
      await server.initialize();
      const list = await server.request('tools/list');
      const tools = (list.result as { tools: Array<{ name: string; description: string; inputSchema: unknown }> }).tools;
      expect(tools).toHaveLength(507);
      expect(tools[506]).toEqual({
        name: 'tool_499',
        description: 'Synthetic tool number 499 for tools/list benchmarks',
        inputSchema: { type: 'object', properties: { x: { type: 'number' }, label: { type: 'string' } }, required: ['x'] },
      });
      expect(await server.request('tools/call', { name: 'tool_7', arguments: { x: 3 } })).toMatchObject({
        result: { content: [{ type: 'text', text: 'tool_7:3' }] },
      });
      expect(await server.end()).toEqual({ code: 0, signal: null });
    } finally {
      server.kill();
    }
  });
});

describe('testbed over stdio, 2026-07-28 beside the handshake era', () => {
  it('answers malformed 2026-07-28 requests with the right codes and keeps serving', async () => {
    const server = RawStdioClient.spawn(process.execPath, [MAIN, 'stdio'], ENV);
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const call = { name: 'add', arguments: { a: 1, b: 2 } };
    try {
      for (const [params, code] of [
        [{ ...call, _meta: { ...meta, 'io.modelcontextprotocol/protocolVersion': 5 } }, -32602],
        [{ ...call, _meta: { ...meta, 'io.modelcontextprotocol/clientCapabilities': [] } }, -32602],
        [{ ...call, _meta: { ...meta, 'io.modelcontextprotocol/logLevel': 'loud' } }, -32602],
        [{ ...call, _meta: meta, requestState: 123 }, -32602],
        [{ ...call, _meta: meta, requestState: 'forged.state' }, -32602],
        [{ ...call, _meta: meta, inputResponses: 'yes' }, -32602],
        [{ name: 'nope', arguments: {}, _meta: meta }, -32602],
        [{ name: 'add', arguments: 'not an object', _meta: meta }, -32602],
      ] as const) {
        expect((await server.request('tools/call', params)).error).toMatchObject({ code });
      }
      expect((await server.request('ping', { _meta: meta })).error).toMatchObject({ code: -32601 });
      expect((await server.request('logging/setLevel', { level: 'info', _meta: meta })).error).toMatchObject({ code: -32601 });
      // A claim-less request before initialize is the handshake era's business: -32600.
      expect((await server.request('tools/list', { _meta: [] })).error).toMatchObject({ code: -32600 });
      server.send({ jsonrpc: '2.0', method: 'notifications/whatever', params: { _meta: meta } });
      expect(await server.request('tools/call', { ...call, _meta: meta })).toMatchObject({ result: { content: [{ text: '3' }], resultType: 'complete' } });
      expect(server.stray).toEqual([]);
      expect(await server.end()).toEqual({ code: 0, signal: null });
    } finally {
      server.kill();
    }
  });

  it('answers server/discover and modern calls, then still accepts initialize on the same process', async () => {
    const server = RawStdioClient.spawn(process.execPath, [MAIN, 'stdio'], ENV);
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    try {
      const discover = await server.request('server/discover', { _meta: meta });
      expect(discover.result).toMatchObject({
        supportedVersions: expect.arrayContaining(['2026-07-28', '2025-11-25']),
        resultType: 'complete',
        ttlMs: 0,
        cacheScope: 'public',
      });
      const call = await server.request('tools/call', { name: 'add', arguments: { a: 2, b: 2 }, _meta: meta });
      expect(call.result).toMatchObject({ content: [{ type: 'text', text: '4' }], resultType: 'complete' });
      expect(
        await server.request('tools/call', {
          name: 'add',
          arguments: { a: 1, b: 1 },
          _meta: { ...meta, 'io.modelcontextprotocol/protocolVersion': '1999-01-01' },
        }),
      ).toMatchObject({
        error: { code: -32022, data: { requested: '1999-01-01' } },
      });
      // A client that falls back to the handshake era.
      expect(await server.initialize()).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
      expect(await server.request('tools/call', { name: 'echo', arguments: { text: 'legacy' } })).toMatchObject({ result: { content: [{ text: 'legacy' }] } });
      expect(server.stray).toEqual([]);
    } finally {
      server.kill();
    }
  });
});
