import { createApp, Prompt, Resource, Tool, type RequestContext } from '@mcpkit/core';
import { IsInt, Min } from 'class-validator';
import pino from 'pino';
import { firstText, TestClient } from '../src';

class WaitInput {
  @IsInt()
  @Min(0)
  ms: number;
}

const aborted: boolean[] = [];

class Base {
  @Tool({ timeoutMs: 50 })
  async quick(input: WaitInput, ctx: RequestContext) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, input.ms);
      ctx.signal.addEventListener('abort', () => (clearTimeout(timer), aborted.push(true), resolve()), { once: true });
    });
    return 'in time';
  }

  @Tool()
  async patient(input: WaitInput) {
    await new Promise((resolve) => setTimeout(resolve, input.ms));
    return 'done';
  }

  @Resource({ uri: 'base://one' })
  one() {
    return '1';
  }
}

class Plugin {
  @Tool({ description: 'Added at run time' })
  plugged() {
    return 'plugged in';
  }

  @Prompt()
  pluggedPrompt() {
    return 'hello';
  }
}

class Many {
  constructor(readonly count: number) {}
}

function manyTools(count: number): object {
  const instance = new Many(count) as unknown as Record<string, unknown>;
  const proto = Object.create(Many.prototype) as Record<string, unknown>;
  for (let i = 0; i < count; i++) {
    proto[`t${i}`] = () => `t${i}`;
    Tool({ input: null })(proto, `t${i}`, Object.getOwnPropertyDescriptor(proto, `t${i}`)!);
  }
  Object.setPrototypeOf(instance, proto);
  return instance;
}

const silent = pino({ level: 'silent' });

describe('tool timeouts', () => {
  it('cancels a tool past its own timeout and answers with a clear error', async () => {
    const client = await TestClient.connect(createApp({ name: 't', version: '1', providers: [Base], logger: silent }));
    aborted.length = 0;
    expect(firstText(await client.callTool('quick', { ms: 5 }))).toBe('in time');
    const late = await client.callTool('quick', { ms: 5_000 });
    expect(late).toEqual({ isError: true, content: [{ type: 'text', text: 'Tool quick timed out after 50 ms and was cancelled' }] });
    expect(aborted).toEqual([true]);
  });

  it('applies the global timeout to tools without their own', async () => {
    const client = await TestClient.connect(createApp({ name: 't', version: '1', providers: [Base], logger: silent, toolTimeoutMs: 30 }));
    expect(firstText(await client.callTool('patient', { ms: 1 }))).toBe('done');
    expect(firstText(await client.callTool('patient', { ms: 1_000 }))).toBe('Tool patient timed out after 30 ms and was cancelled');
  });
});

describe('pagination', () => {
  it('pages every list with opaque cursors and rejects bad ones', async () => {
    const app = createApp({ name: 't', version: '1', providers: [manyTools(7)], logger: silent, pageSize: 3 });
    const client = await TestClient.connect(app);
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.request<{ tools: Array<{ name: string }>; nextCursor?: string }>('tools/list', cursor ? { cursor } : {});
      names.push(...page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(names).toEqual(['t0', 't1', 't2', 't3', 't4', 't5', 't6']);
    await expect(client.request('tools/list', { cursor: 'bm9wZQ' })).rejects.toMatchObject({ code: -32602 });
    await expect(client.request('tools/list', { cursor: 42 })).rejects.toMatchObject({ code: -32602 });
    // A prompts cursor is no tools cursor.
    await expect(client.request('tools/list', { cursor: Buffer.from('prompts:1').toString('base64url') })).rejects.toMatchObject({ code: -32602 });
  });

  it('keeps one page by default', async () => {
    const client = await TestClient.connect(createApp({ name: 't', version: '1', providers: [manyTools(120)], logger: silent }));
    const page = await client.request<{ tools: unknown[]; nextCursor?: string }>('tools/list');
    expect(page.tools).toHaveLength(120);
    expect(page.nextCursor).toBeUndefined();
  });
});

describe('changes at run time', () => {
  it('adds, disables, enables and removes, telling every session', async () => {
    const app = createApp({ name: 't', version: '1', providers: [Base], logger: silent, dynamic: true });
    const a = await TestClient.connect(app);
    const b = await TestClient.connect(app);
    expect(a.server.capabilities).toMatchObject({ tools: { listChanged: true }, prompts: { listChanged: true }, resources: { listChanged: true } });
    expect(await a.listPrompts()).toEqual([]);

    app.addProviders([Plugin]);
    expect((await a.listTools()).map((tool) => tool.name)).toEqual(['quick', 'patient', 'plugged']);
    expect(firstText(await b.callTool('plugged'))).toBe('plugged in');
    expect(a.notifications('notifications/tools/list_changed')).toHaveLength(1);
    expect(b.notifications('notifications/prompts/list_changed')).toHaveLength(1);
    expect(a.notifications('notifications/resources/list_changed')).toHaveLength(0);

    expect(app.disable('tool', 'plugged')).toBe(true);
    expect(app.disable('tool', 'plugged')).toBe(false);
    expect((await a.listTools()).map((tool) => tool.name)).not.toContain('plugged');
    await expect(a.callTool('plugged')).rejects.toMatchObject({ code: -32602 });
    expect(app.enable('tool', 'plugged')).toBe(true);
    expect(firstText(await a.callTool('plugged'))).toBe('plugged in');

    expect(app.remove('resource', 'base://one')).toBe(true);
    expect(await a.listResources()).toEqual([]);
    await expect(a.readResource('base://one')).rejects.toMatchObject({ code: -32002 });
    expect(a.notifications('notifications/resources/list_changed')).toHaveLength(1);
    expect(app.remove('tool', 'nope')).toBe(false);
    expect(a.notifications('notifications/tools/list_changed')).toHaveLength(3);
    a.close();
    b.close();
  });

  it('refuses duplicates at run time and leaves the app unchanged', async () => {
    const app = createApp({ name: 't', version: '1', providers: [Base], logger: silent, dynamic: true });
    expect(() => app.addProviders([Base])).toThrow(/MCPKIT_ERR_DUPLICATE_NAME/);
    expect(app.map.tools.size).toBe(2);
  });

  it('is off unless the app asks for it', () => {
    const app = createApp({ name: 't', version: '1', providers: [Base], logger: silent });
    expect(() => app.addProviders([Plugin])).toThrow(/dynamic: true/);
    expect(app.capabilities.tools).toEqual({});
  });
});
