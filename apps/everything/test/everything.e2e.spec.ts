import { join } from 'node:path';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { RawStdioClient } from '@mcpkit/testing';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ElicitationCompleteNotificationSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { progressHeard } from './support/progress-heard';

const MAIN = join(__dirname, '..', 'dist', 'main.js');
// The built server as a child process, for either official client's stdio transport.
const SERVER = {
  command: process.execPath,
  args: [MAIN, 'stdio'],
  env: { ...process.env, LOG_LEVEL: 'warn' } as Record<string, string>,
  stderr: 'pipe' as const,
};

describe('everything over stdio', () => {
  let client: Client;
  const logs: unknown[] = [];
  const updates: string[] = [];
  const elicitations: unknown[] = [];
  let toolListChanges = 0;
  const completed: string[] = [];

  beforeAll(async () => {
    client = new Client({ name: 'everything-e2e', version: '1' }, { capabilities: { sampling: {}, elicitation: { form: {}, url: {} }, roots: {} } });
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => void completed.push(notification.params.elicitationId));
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => ({
      role: 'assistant',
      model: 'stub',
      content: { type: 'text', text: `echo: ${JSON.stringify(request.params.messages[0].content)}` },
    }));
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      elicitations.push(request.params);
      return { action: 'accept', content: { response: 'yes please' } };
    });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///projects/kit', name: 'kit' }] }));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(notification.params));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void toolListChanges++);
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void updates.push(notification.params.uri));
    await client.connect(new StdioClientTransport(SERVER));
  });

  afterAll(async () => {
    await client.close();
  });

  it('publishes the raw 2020-12 schema verbatim', async () => {
    const tool = (await client.listTools()).tools.find((entry) => entry.name === 'json_schema_2020_12_tool')!;
    expect(tool.inputSchema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $defs: { address: { type: 'object' } },
      additionalProperties: false,
    });
    expect(await client.callTool({ name: 'json_schema_2020_12_tool', arguments: { name: 'x', address: { city: 'y' } } })).toEqual({
      content: [{ type: 'text', text: 'JSON Schema 2020-12 tool called with: {"name":"x","address":{"city":"y"}}' }],
    });
    expect((await client.callTool({ name: 'json_schema_2020_12_tool', arguments: { extra: 1 } })).isError).toBe(true);
  });

  it('streams progress over stdio and returns the token', async () => {
    const { heard, result } = await progressHeard((steps) =>
      client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined, { onprogress: (p) => steps.push(p.progress) }),
    );
    expect(heard).toEqual([0, 50, 100]);
    expect(result.content).toEqual([{ type: 'text', text: expect.stringMatching(/^\d+$/) }]);
  });

  // The tool returns right after its last progress. Both official clients handle a progress
  // notification a microtask after the line that carries it and forget a request's progress
  // handler with its answer, so a last progress read together with the answer was lost, every call.
  it("gives both official clients every call's last progress, on both eras", async () => {
    const seen: Record<string, number[]> = { v1: [], v2: [], 'v2 2026-07-28': [] };
    for (let call = 0; call < 3; call++) {
      await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined, { onprogress: (p) => seen.v1.push(p.progress) });
    }
    for (const pin of [undefined, '2026-07-28'] as const) {
      const modern = new ModernClient({ name: 'progress-v2', version: '1' }, pin ? { capabilities: {}, versionNegotiation: { mode: { pin } } } : undefined);
      await modern.connect(new ModernStdio(SERVER));
      // A fresh client loads code on its first call: an event loop blocked past the gap reads both lines at once.
      await modern.callTool({ name: 'test_tool_with_progress', arguments: {} });
      const into = seen[pin ? `v2 ${pin}` : 'v2'];
      for (let call = 0; call < 3; call++) {
        await modern.callTool({ name: 'test_tool_with_progress', arguments: {} }, { onprogress: (p) => into.push(p.progress) });
      }
      await modern.close();
    }
    // Lost, the last progress was lost on every call. The gap that keeps it is time, though: a
    // client whose event loop a loaded machine blocks past it can still read both lines at once
    // (seen once on Node 24 in CI, beside three other jobs), so one call in three may miss it.
    const lastOfEach = Object.fromEntries(Object.entries(seen).map(([client, steps]) => [client, steps.filter((step) => step === 100).length >= 2]));
    expect(lastOfEach).toEqual({ v1: true, v2: true, 'v2 2026-07-28': true });
    for (const steps of Object.values(seen)) expect(steps.every((step) => [0, 50, 100].includes(step))).toBe(true);
  });

  it('serves the mixed content, the template and the prompts', async () => {
    expect((await client.callTool({ name: 'test_multiple_content_types', arguments: {} })).content).toHaveLength(3);
    expect((await client.readResource({ uri: 'test://template/123/data' })).contents[0]).toEqual({
      uri: 'test://template/123/data',
      mimeType: 'application/json',
      text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}',
    });
    const prompt = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'hello', arg2: 'world' } });
    expect(prompt.messages[0].content).toEqual({ type: 'text', text: "Prompt with arguments: arg1='hello', arg2='world'" });
  });

  it('sends client-visible logs once the client sets a level', async () => {
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    expect(logs).toEqual([]);
    await client.setLoggingLevel('info');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logs).toEqual([
      { level: 'info', data: 'Tool execution started' },
      { level: 'info', data: 'Tool processing data' },
      { level: 'info', data: 'Tool execution completed' },
    ]);
  });

  it('samples, elicits and lists roots through the client', async () => {
    expect(await client.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } })).toEqual({
      content: [{ type: 'text', text: 'LLM response: echo: {"type":"text","text":"hi"}' }],
    });
    expect(await client.callTool({ name: 'test_elicitation', arguments: { message: 'Continue?' } })).toEqual({
      content: [{ type: 'text', text: 'User response: action=accept, content={"response":"yes please"}' }],
    });
    expect(elicitations[0]).toMatchObject({
      mode: 'form',
      message: 'Continue?',
      requestedSchema: { properties: { response: { type: 'string' } }, required: ['response'] },
    });
    expect(await client.callTool({ name: 'list_roots', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'kit file:///projects/kit' }] });
  });

  it('sends the user to a URL and says when it is done', async () => {
    expect(await client.callTool({ name: 'test_url_elicitation', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'URL elicitation: action=accept' }],
    });
    const request = elicitations[elicitations.length - 1] as { mode: string; url: string; elicitationId: string };
    expect(request).toMatchObject({ mode: 'url', url: 'https://example.com/authorize' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(completed).toEqual([request.elicitationId]);
  });

  it('pings in both directions', async () => {
    await expect(client.ping()).resolves.toEqual({});
    expect(await client.callTool({ name: 'ping_client', arguments: {} })).toEqual({
      content: [{ type: 'text', text: expect.stringMatching(/^pong after \d+ ms$/) }],
    });
  });

  it('completes prompt arguments', async () => {
    expect(
      (await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'par' } })).completion,
    ).toEqual({
      values: ['paris', 'park', 'party'],
      total: 3,
      hasMore: false,
    });
  });

  it('notifies a subscribed client when the watched resource changes', async () => {
    await client.subscribeResource({ uri: 'test://watched-resource' });
    const deadline = Date.now() + 5_000;
    while (!updates.includes('test://watched-resource') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(updates).toContain('test://watched-resource');
    await client.unsubscribeResource({ uri: 'test://watched-resource' });
  });

  it('cancels a tool past its timeout with a clear error', async () => {
    // The answer names the 100 ms limit that ended it; the wall time it took is not the property.
    expect(await client.callTool({ name: 'test_timeout', arguments: {} })).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'Tool test_timeout timed out after 100 ms and was cancelled' }],
    });
  });

  it('announces the tools added at run time', async () => {
    const deadline = Date.now() + 5_000;
    while (toolListChanges === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(toolListChanges).toBe(1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('test_dynamic_tool');
    expect(await client.callTool({ name: 'test_dynamic_tool', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'This tool was added dynamically.' }],
    });
  });
});

describe('everything over stdio with pages of 4', () => {
  it('pages tools/list with cursors the SDK client follows', async () => {
    const client = new Client({ name: 'pager', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MAIN, 'stdio'],
        env: { ...process.env, LOG_LEVEL: 'warn', PAGE_SIZE: '4' } as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    const first = await client.listTools();
    expect(first.tools).toHaveLength(4);
    const names = first.tools.map((tool) => tool.name);
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await client.listTools({ cursor });
      names.push(...page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
    }
    expect(names).toContain('json_schema_2020_12_tool');
    expect(new Set(names).size).toBe(names.length);
    await expect(client.listTools({ cursor: 'not-a-cursor' })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });
});

// Elicitation arrived in 2025-06-18: on older revisions a client that declares it anyway is
// treated as one that does not, is never sent elicitation/create, and is told the revision is why
// (not that it did not declare a capability it did declare). URL elicitation arrived in 2025-11-25.
describe('everything over stdio on revisions without elicitation', () => {
  const callElicitation = async (version: string, capabilities: Record<string, unknown>, tool = 'test_elicitation') => {
    const server = RawStdioClient.spawn(process.execPath, [MAIN, 'stdio'], { ...process.env, LOG_LEVEL: 'warn' });
    try {
      await server.request('initialize', { protocolVersion: version, capabilities, clientInfo: { name: 'old', version: '1' } });
      server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const answer = await server.request('tools/call', { name: tool, arguments: tool === 'test_elicitation' ? { message: 'Your name?' } : {} });
      // Still serving afterwards.
      expect(await server.request('ping')).toMatchObject({ result: {} });
      return { answer, asked: server.messages.filter((message) => message.method === 'elicitation/create') };
    } finally {
      await server.end();
    }
  };
  const refusal = (text: string) => ({ result: { isError: true, content: [{ type: 'text', text }] } });

  it.each(['2024-11-05', '2025-03-26'])('answers %s like a client without the capability, says the revision has none, and asks nothing', async (version) => {
    const declared = await callElicitation(version, { elicitation: {} });
    const undeclared = await callElicitation(version, {});
    expect(declared.asked).toEqual([]);
    expect(declared.answer).toEqual(undeclared.answer);
    expect(declared.answer).toMatchObject(
      refusal(`The negotiated protocol revision ${version} has no elicitation (it arrived in 2025-06-18), so elicitation/create cannot be sent`),
    );
  });

  it('says 2025-06-18 has no URL elicitation to a client that declares elicitation.url, and asks nothing', async () => {
    const declared = await callElicitation('2025-06-18', { elicitation: { form: {}, url: {} } }, 'test_url_elicitation');
    expect(declared.asked).toEqual([]);
    expect(declared.answer).toMatchObject(
      refusal('The negotiated protocol revision 2025-06-18 has no URL elicitation (it arrived in 2025-11-25), so elicitation/create cannot be sent'),
    );
  });
});
