import { join } from 'node:path';
import { HttpServerProcess } from '@mcpkit/testing';
import { CLIENT_KINDS, DYNAMIC_AFTER_MS, type BehaviourClient, type ClientKind, type Seen } from './support/behaviour-clients';
import { progressHeard } from './support/progress-heard';

// One behaviour suite, every client: the official SDK v1 client (legacy era), the official v2
// client pinned to 2026-07-28 (modern era) and @mcpkit/client on both eras, each against the
// built everything app over a real child process (stdio) and loopback HTTP. A case that passes
// with the official clients must pass with ours: same calls, same answers.
const MAIN = join(__dirname, '..', 'dist', 'main.js');

async function until(condition: () => boolean, timeoutMs = 8_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
}

const ROWS = CLIENT_KINDS.flatMap((kind) => (['stdio', 'http'] as const).map((transport) => ({ kind, transport, label: `${kind.name} (${kind.era} era)` })));

describe.each(ROWS)('everything with $label over $transport', ({ kind, transport }: { kind: ClientKind; transport: 'stdio' | 'http' }) => {
  let server: HttpServerProcess | undefined;
  let client: BehaviourClient;
  const seen: Seen = { elicitations: [], logs: [], updates: [], toolListChanges: 0 };

  beforeAll(async () => {
    if (transport === 'http') server = await HttpServerProcess.start(process.execPath, [MAIN, 'http'], { LOG_LEVEL: 'warn', DYNAMIC_AFTER_MS });
    client = await kind.connect({ transport, main: MAIN, url: server?.url }, seen);
  });

  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it('lists and calls tools; a tool error is a result', async () => {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('test_simple_text');
    expect((await client.callTool('test_simple_text')).content).toEqual([{ type: 'text', text: 'This is a simple text response for testing.' }]);
    expect((await client.callTool('test_error_handling')).isError).toBe(true);
  });

  it('reads resources and templates, gets prompts, completes arguments', async () => {
    expect((await client.listResources()).resources.length).toBeGreaterThan(0);
    expect((await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate)).toContain('test://template/{id}/data');
    expect((await client.readResource('test://template/123/data')).contents[0]).toEqual({
      uri: 'test://template/123/data',
      mimeType: 'application/json',
      text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}',
    });
    expect((await client.listPrompts()).prompts.map((entry) => entry.name)).toContain('test_prompt_with_arguments');
    expect((await client.getPrompt('test_prompt_with_arguments', { arg1: 'hello', arg2: 'world' })).messages[0].content).toEqual({
      type: 'text',
      text: "Prompt with arguments: arg1='hello', arg2='world'",
    });
    expect((await client.complete('test_prompt_with_arguments', 'arg1', 'par')).completion.values).toEqual(['paris', 'park', 'party']);
  });

  it('streams progress', async () => {
    const { heard } = await progressHeard((steps) => client.callTool('test_tool_with_progress', {}, { onProgress: (value) => steps.push(value) }));
    expect(heard).toEqual([0, 50, 100]);
  });

  it('answers sampling, form and URL elicitation, and roots', async () => {
    expect((await client.callTool('test_sampling', { prompt: 'hi' })).content).toEqual([
      { type: 'text', text: 'LLM response: echo: {"type":"text","text":"hi"}' },
    ]);
    expect((await client.callTool('test_elicitation', { message: 'Continue?' })).content).toEqual([
      { type: 'text', text: 'User response: action=accept, content={"response":"yes please"}' },
    ]);
    expect(seen.elicitations[seen.elicitations.length - 1]).toMatchObject({
      message: 'Continue?',
      requestedSchema: { properties: { response: { type: 'string' } } },
    });
    expect((await client.callTool('list_roots')).content).toEqual([{ type: 'text', text: 'kit file:///projects/kit' }]);
    expect((await client.callTool('test_url_elicitation')).content).toEqual([{ type: 'text', text: 'URL elicitation: action=accept' }]);
  });

  it('cancels a call when its signal aborts, and goes on serving', async () => {
    const controller = new AbortController();
    const call = client.callTool('test_tool_with_progress', {}, { signal: controller.signal, onProgress: () => controller.abort() });
    await expect(call).rejects.toThrow();
    expect((await client.callTool('test_simple_text')).content).toEqual([{ type: 'text', text: 'This is a simple text response for testing.' }]);
  });

  it('receives the log notifications of the level it set', async () => {
    await client.setLogLevel('info');
    await client.callTool('test_tool_with_logging');
    await until(() => seen.logs.length >= 3);
    expect(seen.logs).toEqual(['Tool execution started', 'Tool processing data', 'Tool execution completed']);
  });

  it('is told when the tools change', async () => {
    await until(() => seen.toolListChanges > 0, 2 * Number(DYNAMIC_AFTER_MS));
    expect(seen.toolListChanges).toBe(1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('test_dynamic_tool');
  });

  it('is told of the updates of a subscribed resource', async () => {
    const stop = await client.subscribe('test://watched-resource');
    await until(() => seen.updates.length > 0);
    await stop();
    expect(seen.updates).toContain('test://watched-resource');
  });
});
