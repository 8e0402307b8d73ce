import { join } from 'node:path';
import { createApp, type McpApp } from '@mcpkit/core';
import { HttpServerProcess, TestClient, firstText } from '@mcpkit/testing';
import { proxy, type McpProxy, type ProxyTarget } from '../src';
import { ManualTimers } from './support/manual-timers';

// The built apps/everything behind a gateway that mounts its proxy under `everything`: the remote
// a real child process (stdio, spawned by the proxy) or a real loopback server (HTTP), spoken to
// in either era, and the gateway's own client in the other one.
const MAIN = join(__dirname, '..', '..', '..', 'apps', 'everything', 'dist', 'main.js');
const ENV = { ...process.env, LOG_LEVEL: 'warn' };

type Way = { transport: 'stdio' | 'http'; remote: 'legacy' | 'modern'; gateway: 'legacy' | 'modern' };
const WAYS: Way[] = [
  { transport: 'stdio', remote: 'legacy', gateway: 'modern' },
  { transport: 'stdio', remote: 'modern', gateway: 'legacy' },
  { transport: 'http', remote: 'modern', gateway: 'modern' },
  { transport: 'http', remote: 'legacy', gateway: 'legacy' },
];

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

const HANDLERS = {
  'elicitation/create': (params: Record<string, unknown>) => ({ action: 'accept', content: { response: `yes to ${String(params.message)}` } }),
  'sampling/createMessage': () => ({ role: 'assistant', content: { type: 'text', text: 'sampled at the gateway' }, model: 'test-model' }),
  'roots/list': () => ({ roots: [{ uri: 'file:///gateway/root', name: 'root' }] }),
};

describe.each(WAYS)(
  'a gateway proxying apps/everything over $transport ($remote remote, $gateway gateway client)',
  ({ transport, remote, gateway: gatewayEra }) => {
    let server: HttpServerProcess | undefined;
    let upstream: McpProxy;
    let gateway: McpApp;
    let client: TestClient;
    const timers = new ManualTimers();
    const errors: Error[] = [];

    beforeAll(async () => {
      let target: ProxyTarget;
      if (transport === 'stdio') target = { command: process.execPath, args: [MAIN, 'stdio'], env: ENV, stderr: 'pipe' };
      else {
        server = await HttpServerProcess.start(process.execPath, [MAIN, 'http'], ENV);
        target = { url: server.url };
      }
      upstream = await proxy(target, {
        // The default (`auto`) picks 2026-07-28, which everything speaks: the modern stdio case runs on it.
        client: transport === 'stdio' && remote === 'modern' ? { reconnectDelayMs: 10 } : { era: remote, reconnectDelayMs: 10 },
        exclude: [/^test_input_required_/, 'test_reconnection'],
        timers,
        onError: (error) => void errors.push(error),
      });
      gateway = createApp({ name: 'gateway', version: '1.0.0', providers: [], subscriptions: true, imports: [{ app: upstream.app, prefix: 'everything' }] });
      client = await TestClient.connect(gateway, { era: gatewayEra, handlers: HANDLERS });
    });

    afterAll(async () => {
      client?.close();
      await upstream?.close();
      await server?.stop();
    });

    it(`speaks the ${remote} era to the remote`, () => {
      expect(upstream.client?.era).toBe(remote);
    });

    it("lists the remote's tools, prompts and resources under the prefix, filtered", async () => {
      const tools = (await client.listTools()).map((tool) => tool.name);
      expect(tools).toEqual(expect.arrayContaining(['everything_test_simple_text', 'everything_test_tool_with_progress', 'everything_slow_compute']));
      expect(tools.some((name) => name.startsWith('everything_test_input_required_'))).toBe(false);
      expect((await client.listPrompts()).map((prompt) => prompt.name)).toContain('everything_test_prompt_with_arguments');
      expect((await client.listResources()).map((resource) => resource.uri)).toContain('everything+test://static-text');
      expect((await client.listResourceTemplates()).map((template) => template.uriTemplate)).toEqual(
        expect.arrayContaining([expect.stringMatching(/^everything\+test:/)]),
      );
    });

    it('calls a tool, gets a prompt with arguments and reads a resource and a template through the hop', async () => {
      expect(firstText(await client.callTool('everything_test_simple_text'))).toBe('This is a simple text response for testing.');
      const prompt = await client.getPrompt('everything_test_prompt_with_arguments', { arg1: 'one', arg2: 'two' });
      expect(JSON.stringify(prompt.messages)).toContain('one');
      expect(firstText(await client.readResource('everything+test://static-text'))).toEqual(expect.any(String));
      const [template] = await client.listResourceTemplates();
      const uri = template!.uriTemplate.replace(/\{[^}]+\}/, '42');
      expect(JSON.stringify(await client.readResource(uri))).toContain('42');
    });

    it("relays the remote's progress to the gateway's caller", async () => {
      const result = await client.callTool('everything_test_tool_with_progress', {}, { progressToken: 'p-1' });
      expect(result.isError).toBeUndefined();
      const progress = client.notifications('notifications/progress').filter((params) => params.progressToken === 'p-1');
      // The latest update of each turn goes on (two steps read at once under load: only the later).
      const steps = progress.map((params) => params.progress);
      expect(steps.at(-1)).toBe(100);
      expect(steps).toEqual([0, 50, 100].filter((step) => steps.includes(step)));
    });

    it("relays the remote's elicitation, sampling and roots to the gateway's caller", async () => {
      expect(firstText(await client.callTool('everything_test_elicitation', { message: 'proceed?' }))).toBe(
        'User response: action=accept, content={"response":"yes to proceed?"}',
      );
      expect(firstText(await client.callTool('everything_test_sampling', { prompt: 'hi' }))).toBe('LLM response: sampled at the gateway');
      // A legacy remote behind a 2026-07-28 caller too: the caller's retry reaches the remote only
      // once it read the first round's refused roots/list (QuestionRelay.caughtUp).
      expect(firstText(await client.callTool('everything_list_roots'))).toContain('file:///gateway/root');
    });

    it("fails a remote's unknown-argument call as the remote says", async () => {
      const result = await client.callTool('everything_test_elicitation', {});
      expect(result.isError).toBe(true);
    });

    it("relays the remote's resource updates to the gateway's subscribers", async () => {
      // apps/everything updates test://watched-resource every 3 seconds.
      if (gatewayEra === 'legacy') {
        await client.subscribe('everything+test://watched-resource');
        await until(() => client.notifications('notifications/resources/updated').some((params) => params.uri === 'everything+test://watched-resource'));
      } else {
        const listen = await client.listen({ resourceSubscriptions: ['everything+test://watched-resource'] });
        await until(() => client.notifications('notifications/resources/updated').some((params) => params.uri === 'everything+test://watched-resource'));
        await listen.close();
      }
    });

    it("relays the remote's list change: a tool that left is gone from the gateway, and comes back", async () => {
      const names = async () => (await client.listTools()).map((tool) => tool.name);
      const before = (await names()).includes('everything_test_toggle_tool');
      const changes = client.notifications('notifications/tools/list_changed').length;
      await client.callTool('everything_test_trigger_tool_change');
      await until(async () => (await names()).includes('everything_test_toggle_tool') !== before);
      if (gatewayEra === 'legacy') await until(() => client.notifications('notifications/tools/list_changed').length > changes);
      await client.callTool('everything_test_trigger_tool_change');
      await until(async () => (await names()).includes('everything_test_toggle_tool') === before);
    });

    it('fails a call at once when the remote dies mid-call, reconnects when its timer runs, and lists again', async () => {
      const call = client.callTool('everything_slow_compute', { seconds: 30 });
      expect(upstream.client).toBeDefined();
      await new Promise((resolve) => setTimeout(resolve, 100));
      // Kill the remote while the call waits: the stdio child the proxy spawned, or the HTTP server.
      if (transport === 'stdio') process.kill((upstream.client!.transport as { pid?: number }).pid!, 'SIGKILL');
      else {
        server!.child.kill('SIGKILL');
        await server!.exited;
      }
      const result = await call;
      expect(result.isError).toBe(true);
      expect(firstText(result)).toMatch(/tool slow_compute: the upstream server failed/);
      await until(() => timers.waiting.length > 0);
      // While it is away, its tools answer at once and clearly.
      expect(upstream.client).toBeUndefined();
      expect(firstText(await client.callTool('everything_test_simple_text'))).toBe(
        'tool test_simple_text: the upstream server is not connected (the proxy is reconnecting)',
      );
      if (transport === 'http') server = await HttpServerProcess.start(process.execPath, [MAIN, 'http'], { ...ENV, PORT: new URL(server!.url).port });
      timers.runNext();
      await until(() => upstream.client !== undefined);
      expect(firstText(await client.callTool('everything_test_simple_text'))).toBe('This is a simple text response for testing.');
      expect((await client.listTools()).map((tool) => tool.name)).toContain('everything_slow_compute');
    });
  },
);
