import { join } from 'node:path';
import { HttpServerProcess } from '@mcpkit/testing';
import { ClientErrorCode, McpClient, McpClientError, type ClientOptions, type ClientTarget } from '../src';

// @mcpkit/client against the built apps/everything, over a real child process (stdio) and a
// real loopback socket (HTTP), in both eras: the same cases, one table of ways to connect.
const MAIN = join(__dirname, '..', '..', '..', 'apps', 'everything', 'dist', 'main.js');
const ENV = { ...process.env, LOG_LEVEL: 'warn' };

const elicitations: Record<string, unknown>[] = [];
const HANDLERS: ClientOptions['handlers'] = {
  'elicitation/create': (params) => {
    elicitations.push(params);
    return params.mode === 'url' ? { action: 'accept' } : { action: 'accept', content: { response: 'yes please' } };
  },
  'sampling/createMessage': (params) => ({
    role: 'assistant',
    model: 'stub',
    content: { type: 'text', text: `echo: ${JSON.stringify((params.messages as Array<{ content: unknown }>)[0].content)}` },
  }),
  'roots/list': () => ({ roots: [{ uri: 'file:///projects/kit', name: 'kit' }] }),
};

type Way = { transport: 'stdio' | 'http'; era: 'legacy' | 'modern' };
const WAYS: Way[] = [
  { transport: 'stdio', era: 'legacy' },
  { transport: 'stdio', era: 'modern' },
  { transport: 'http', era: 'legacy' },
  { transport: 'http', era: 'modern' },
];

async function until(condition: () => boolean, timeoutMs = 8_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
}

describe.each(WAYS)('@mcpkit/client and apps/everything over $transport, $era era', ({ transport, era }) => {
  let server: HttpServerProcess | undefined;
  let client: McpClient;
  const strays: McpClientError[] = [];
  let toolListChanges = 0;

  beforeAll(async () => {
    let target: ClientTarget = { command: process.execPath, args: [MAIN, 'stdio'], env: ENV, stderr: 'pipe' };
    if (transport === 'http') {
      server = await HttpServerProcess.start(process.execPath, [MAIN, 'http'], ENV);
      target = { url: server.url };
    }
    client = await McpClient.connect(target, {
      era: era === 'modern' ? 'auto' : 'legacy',
      clientInfo: { name: 'client-e2e', version: '1' },
      handlers: HANDLERS,
      capabilities: { elicitation: { form: {}, url: {} } },
      onError: (error) => void strays.push(error),
    });
    // apps/everything adds a tool two seconds after it starts.
    client.on('notifications/tools/list_changed', () => void toolListChanges++);
  });

  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it('opens the era asked for (auto finds 2026-07-28) and knows the server', () => {
    expect(client.era).toBe(era);
    expect(client.server.protocolVersion).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
    expect(client.server.serverInfo.name).toEqual(expect.any(String));
    expect(client.capabilities.tools).toBeDefined();
  });

  it('lists and calls tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('test_simple_text');
    expect((await client.callTool('test_simple_text')).content).toEqual([{ type: 'text', text: 'This is a simple text response for testing.' }]);
    expect((await client.callTool('test_error_handling')).isError).toBe(true);
    await expect(client.callTool('no_such_tool')).rejects.toMatchObject({ name: 'McpClientError', code: -32602 });
    // 2026-07-28 over HTTP: the arguments marked x-mcp-header go in Mcp-Param-* headers too (the server checks them).
    expect((await client.callTool('test_x_mcp_header', { region: 'eu-west', priority: 2, verbose: true })).content).toEqual([
      { type: 'text', text: 'region eu-west, priority 2, verbose true' },
    ]);
  });

  it('reads resources and templates, gets prompts, completes arguments', async () => {
    expect((await client.listResources()).resources.length).toBeGreaterThan(0);
    expect((await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate)).toContain('test://template/{id}/data');
    expect((await client.readResource('test://template/123/data')).contents[0]).toEqual({
      uri: 'test://template/123/data',
      mimeType: 'application/json',
      text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}',
    });
    const prompt = await client.getPrompt('test_prompt_with_arguments', { arg1: 'hello', arg2: 'world' });
    expect(prompt.messages[0].content).toEqual({ type: 'text', text: "Prompt with arguments: arg1='hello', arg2='world'" });
    expect((await client.listPrompts()).prompts.map((entry) => entry.name)).toContain('test_prompt_with_arguments');
    const { completion } = await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'par' } });
    expect(completion.values).toEqual(['paris', 'park', 'party']);
  });

  it('streams progress to onProgress', async () => {
    const seen: number[] = [];
    await client.callTool('test_tool_with_progress', {}, { onProgress: (progress) => seen.push(progress.progress) });
    expect(seen).toEqual([0, 50, 100]);
  });

  it('answers sampling, elicitation and roots through the handlers', async () => {
    expect(await client.callTool('test_sampling', { prompt: 'hi' })).toMatchObject({
      content: [{ type: 'text', text: 'LLM response: echo: {"type":"text","text":"hi"}' }],
    });
    expect(await client.callTool('test_elicitation', { message: 'Continue?' })).toMatchObject({
      content: [{ type: 'text', text: 'User response: action=accept, content={"response":"yes please"}' }],
    });
    expect(elicitations[elicitations.length - 1]).toMatchObject({ message: 'Continue?', requestedSchema: { properties: { response: { type: 'string' } } } });
    expect(await client.callTool('list_roots')).toMatchObject({ content: [{ type: 'text', text: 'kit file:///projects/kit' }] });
    expect(await client.callTool('test_url_elicitation')).toMatchObject({ content: [{ type: 'text', text: 'URL elicitation: action=accept' }] });
  });

  // Over legacy HTTP the server closes the POST's stream mid-call (SEP-1699): the client resumes
  // it with a GET and Last-Event-ID and reads the answer there.
  it('gets the answer of a call whose stream the server closed', async () => {
    expect((await client.callTool('test_reconnection')).content).toEqual([
      {
        type: 'text',
        text: 'Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.',
      },
    ]);
  });

  it('cancels a call when its signal aborts, and keeps serving', async () => {
    const controller = new AbortController();
    const call = client.callTool('test_tool_with_progress', {}, { signal: controller.signal, onProgress: () => controller.abort('enough') });
    await expect(call).rejects.toMatchObject({ code: ClientErrorCode.RequestCancelled, message: 'tools/call was cancelled: enough' });
    expect((await client.callTool('test_simple_text')).isError).toBeUndefined();
    // The server stopped: no answer to the cancelled request came back afterwards.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(strays).toEqual([]);
  });

  it('times a call out with a clear error', async () => {
    const call = client.callTool('test_tool_with_progress', {}, { timeoutMs: 20 });
    await expect(call).rejects.toMatchObject({ code: ClientErrorCode.RequestTimeout, message: 'tools/call got no answer within 20 ms' });
  });

  it('receives the log notifications of the level it set', async () => {
    const logs: unknown[] = [];
    const stop = client.on('notifications/message', (params) => void logs.push(params.data));
    await client.setLogLevel('info');
    await client.callTool('test_tool_with_logging');
    await until(() => logs.length >= 3);
    stop();
    expect(logs).toEqual(['Tool execution started', 'Tool processing data', 'Tool execution completed']);
  });

  it('is told when the tools change, and lists the new one', async () => {
    await until(() => toolListChanges > 0);
    expect(toolListChanges).toBe(1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('test_dynamic_tool');
  });

  it('is told of the updates of a subscribed resource', async () => {
    const updates: unknown[] = [];
    const stop = client.on('notifications/resources/updated', (params) => void updates.push(params.uri));
    await client.subscribe('test://watched-resource');
    await until(() => updates.length > 0);
    stop();
    await client.unsubscribe('test://watched-resource');
    expect(updates).toContain('test://watched-resource');
  });
});
