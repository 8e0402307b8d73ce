import { join } from 'node:path';
import { ClientErrorCode, McpClient, McpClientError } from '../src';
import { serverUnderTest, type ServerUnderTest } from './support/server-target';

// What only @mcpkit/client is asked, against the built apps/everything over a real child process
// (stdio) and a real loopback socket (HTTP), in both eras: its own errors and codes, era auto,
// Mcp-Param-* headers, a stream resumed mid-call. What every client must do (tools, resources,
// prompts, progress, elicitation, sampling, roots, cancellation, logs, subscriptions, list
// changes) is apps/everything/test/client-behaviour.e2e.spec.ts, run with the official clients too.
const MAIN = join(__dirname, '..', '..', '..', 'apps', 'everything', 'dist', 'main.js');

type Way = { transport: 'stdio' | 'http'; era: 'legacy' | 'modern' };
const WAYS: Way[] = [
  { transport: 'stdio', era: 'legacy' },
  { transport: 'stdio', era: 'modern' },
  { transport: 'http', era: 'legacy' },
  { transport: 'http', era: 'modern' },
];

describe.each(WAYS)('@mcpkit/client and apps/everything over $transport, $era era', ({ transport, era }) => {
  let server: ServerUnderTest | undefined;
  let client: McpClient;
  const strays: McpClientError[] = [];
  const relatedCalls: unknown[] = [];

  beforeAll(async () => {
    server = await serverUnderTest(MAIN, transport);
    client = await McpClient.connect(server.target, {
      era: era === 'modern' ? 'auto' : 'legacy',
      clientInfo: { name: 'client-e2e', version: '1' },
      onError: (error) => void strays.push(error),
      handlers: { 'elicitation/create': (_params, context) => (relatedCalls.push(context.call), { action: 'decline' }) },
    });
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

  it("fails a call of an unknown tool with the server's code, and sends Mcp-Param-* headers", async () => {
    await client.listTools();
    await expect(client.callTool('no_such_tool')).rejects.toMatchObject({ name: 'McpClientError', code: -32602 });
    // 2026-07-28 over HTTP: the arguments marked x-mcp-header go in Mcp-Param-* headers too (the server checks them).
    expect((await client.callTool('test_x_mcp_header', { region: 'eu-west', priority: 2, verbose: true })).content).toEqual([
      { type: 'text', text: 'region eu-west, priority 2, verbose true' },
    ]);
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

  // 2025-11-25 tasks through request(): a task-augmented call, polled, its result fetched. (The
  // 2026-07-28 tasks extension runs through @mcpkit/client in apps/everything/test/tasks.e2e.spec.ts.)
  (era === 'legacy' ? it : it.skip)('runs a 2025-11-25 task through request()', async () => {
    const created = await client.request('tools/call', { name: 'slow_compute', arguments: { seconds: 0.1, label: 'client' }, task: { ttl: 60_000 } });
    const taskId = (created.task as { taskId: string }).taskId;
    let status = '';
    for (let poll = 0; poll < 100 && status !== 'completed'; poll++) {
      status = (await client.request('tasks/get', { taskId })).status as string;
      if (status !== 'completed') await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe('completed');
    expect((await client.request('tasks/result', { taskId })).content).toEqual([{ type: 'text', text: 'Computed client after 0.1s' }]);
  });

  // What a proxy needs to relay a question to the right caller: the call it belongs to, when the protocol says.
  it('tells the handler which call a server request belongs to, where the protocol relates them', async () => {
    await client.callTool('test_elicitation', { message: 'Whose?' }, { tag: 'caller-7' });
    const related = transport === 'stdio' && era === 'legacy' ? undefined : { method: 'tools/call', tag: 'caller-7' };
    expect(relatedCalls).toEqual([related]);
  });

  it('times a call out with a clear error', async () => {
    const call = client.callTool('test_tool_with_progress', {}, { timeoutMs: 20 });
    await expect(call).rejects.toMatchObject({ code: ClientErrorCode.RequestTimeout, message: 'tools/call got no answer within 20 ms' });
  });
});
