import { Complete, createApp, Field, Prompt, ResourceTemplate, Tool, type RequestContext } from '@mcpkit/core';
import { IsBoolean, IsInt, IsOptional, IsString, Min } from 'class-validator';
import pino from 'pino';
import { firstText, TestClient } from '../src';

class Confirmation {
  @Field({ description: 'Proceed?' })
  @IsBoolean()
  confirm: boolean;

  @IsOptional()
  @IsInt()
  @Min(1)
  copies?: number;
}

class LanguageArgs {
  @IsString()
  language: string;

  @IsOptional()
  @IsString()
  style?: string;
}

class Features {
  @Tool({ input: null })
  async chatty(_input: unknown, ctx: RequestContext) {
    for (const level of ['debug', 'info', 'warning', 'error'] as const) ctx.log[level](`at ${level}`, 'features');
    return 'logged';
  }

  @Tool({ input: null })
  async ask(_input: unknown, ctx: RequestContext) {
    const answer = await ctx.elicit('Print it?', Confirmation);
    if (answer.action !== 'accept') return `no (${answer.action})`;
    return `confirm=${answer.content.confirm} copies=${answer.content.copies ?? 1} instance=${answer.content instanceof Confirmation}`;
  }

  @Tool({ input: null })
  async think(_input: unknown, ctx: RequestContext) {
    const result = await ctx.sample('What is 2+2?', { maxTokens: 10 });
    return `model ${result.model} said ${JSON.stringify(result.content)}`;
  }

  @Tool({ input: null })
  async where(_input: unknown, ctx: RequestContext) {
    const roots = await ctx.roots();
    return roots.map((root) => root.uri).join(',');
  }

  @Tool({ input: null })
  async pingBack(_input: unknown, ctx: RequestContext) {
    await ctx.ping();
    return 'pong received';
  }

  @Tool({ input: null })
  async impatient(_input: unknown, ctx: RequestContext) {
    await ctx.sample('slow?', { timeoutMs: 50 });
    return 'unreachable';
  }

  @Tool({ input: null })
  async login(_input: unknown, ctx: RequestContext) {
    const answer = await ctx.elicitUrl('Sign in to continue', 'https://auth.example.com/start');
    if (answer.action === 'accept') ctx.completeElicitation(answer.elicitationId);
    return `${answer.action} ${answer.elicitationId.length}`;
  }

  @Prompt()
  translate(args: LanguageArgs) {
    return `Translate to ${args.language}`;
  }

  @Complete({ prompt: 'translate', argument: 'language' })
  languages(value: string, context: { arguments: Record<string, string> }) {
    const all = context.arguments.style === 'many' ? Array.from({ length: 150 }, (_, i) => `lang${i}`) : ['english', 'esperanto', 'french'];
    return all.filter((language) => language.startsWith(value));
  }

  @ResourceTemplate({ uriTemplate: 'docs://{section}' })
  doc({ section }: { section: string }) {
    return `section ${section}`;
  }

  @Complete({ resourceTemplate: 'docs://{section}', variable: 'section' })
  sections(value: string) {
    return ['intro', 'install', 'usage'].filter((section) => section.startsWith(value));
  }
}

function app(options: { clientLogging?: boolean | { defaultLevel?: 'info' }; subscriptions?: boolean } = { clientLogging: true, subscriptions: true }) {
  return createApp({ name: 'features', version: '1', providers: [Features], logger: pino({ level: 'silent' }), ...options });
}

describe('client logging (ctx.log)', () => {
  it('sends nothing before the client sets a level, then only messages at or above it', async () => {
    const client = await TestClient.connect(app());
    expect(client.server.capabilities.logging).toEqual({});
    await client.callTool('chatty');
    expect(client.notifications('notifications/message')).toEqual([]);
    await client.setLogLevel('warning');
    await client.callTool('chatty');
    expect(client.notifications('notifications/message')).toEqual([
      { level: 'warning', logger: 'features', data: 'at warning' },
      { level: 'error', logger: 'features', data: 'at error' },
    ]);
  });

  it('sends from the start when the app opts in with a default level', async () => {
    const client = await TestClient.connect(app({ clientLogging: { defaultLevel: 'info' } }));
    await client.callTool('chatty');
    expect(client.notifications('notifications/message').map((message) => message.level)).toEqual(['info', 'warning', 'error']);
  });

  it('rejects an unknown level with -32602, and is not there without clientLogging', async () => {
    const client = await TestClient.connect(app());
    await expect(client.setLogLevel('loud')).rejects.toMatchObject({ code: -32602 });
    const plain = await TestClient.connect(app({}));
    expect(plain.server.capabilities.logging).toBeUndefined();
    await expect(plain.setLogLevel('info')).rejects.toMatchObject({ code: -32601 });
  });
});

describe('server-to-client requests', () => {
  it('elicits a form from a DTO and returns a validated instance', async () => {
    let requested: Record<string, unknown> = {};
    const client = await TestClient.connect(app(), {
      handlers: {
        'elicitation/create': (params) => {
          requested = params;
          return { action: 'accept', content: { confirm: true, copies: 2, extra: 'dropped' } };
        },
      },
    });
    expect(firstText(await client.callTool('ask'))).toBe('confirm=true copies=2 instance=true');
    expect(requested).toMatchObject({
      mode: 'form',
      message: 'Print it?',
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', description: 'Proceed?' }, copies: { type: 'integer', minimum: 1 } },
        required: ['confirm'],
      },
    });
  });

  it('reports decline and cancel, and refuses an answer that breaks the form', async () => {
    const answers = [{ action: 'decline' }, { action: 'cancel' }, { action: 'accept', content: { confirm: 'yes' } }];
    const client = await TestClient.connect(app(), { handlers: { 'elicitation/create': () => answers.shift()! } });
    expect(firstText(await client.callTool('ask'))).toBe('no (decline)');
    expect(firstText(await client.callTool('ask'))).toBe('no (cancel)');
    const broken = await client.callTool('ask');
    expect(broken.isError).toBe(true);
    expect(firstText(broken)).toContain('confirm: must be boolean');
  });

  it('leaves out `mode` for clients older than 2025-11-25', async () => {
    let requested: Record<string, unknown> = {};
    const client = await TestClient.connect(app(), {
      protocolVersion: '2025-06-18',
      handlers: { 'elicitation/create': (params) => ((requested = params), { action: 'cancel' }) },
    });
    await client.callTool('ask');
    expect(requested).not.toHaveProperty('mode');
  });

  it('samples, lists roots and pings the client', async () => {
    const client = await TestClient.connect(app(), {
      handlers: {
        'sampling/createMessage': (params) => ({
          role: 'assistant',
          model: 'test-model',
          content: { type: 'text', text: `4 (max ${params.maxTokens as number})` },
        }),
        'roots/list': () => ({ roots: [{ uri: 'file:///work', name: 'work' }, { uri: 'file:///tmp' }] }),
      },
    });
    expect(firstText(await client.callTool('think'))).toBe('model test-model said {"type":"text","text":"4 (max 10)"}');
    expect(firstText(await client.callTool('where'))).toBe('file:///work,file:///tmp');
    expect(firstText(await client.callTool('pingBack'))).toBe('pong received');
  });

  it('sends the user to a URL and announces completion (URL-mode elicitation)', async () => {
    let requested: Record<string, unknown> = {};
    const client = await TestClient.connect(app(), {
      capabilities: { elicitation: { form: {}, url: {} } },
      handlers: { 'elicitation/create': (params) => ((requested = params), { action: 'accept' }) },
    });
    expect(firstText(await client.callTool('login'))).toBe('accept 36');
    expect(requested).toEqual({
      mode: 'url',
      message: 'Sign in to continue',
      url: 'https://auth.example.com/start',
      elicitationId: expect.any(String),
      _meta: expect.any(Object),
    });
    expect(client.notifications('notifications/elicitation/complete')).toEqual([{ elicitationId: requested.elicitationId }]);
    const formOnly = await TestClient.connect(app(), { handlers: { 'elicitation/create': () => ({ action: 'accept' }) } });
    expect(firstText(await formOnly.callTool('login'))).toBe('The client did not declare URL elicitation (capabilities.elicitation.url)');
  });

  it('answers pings from the client before and after the handshake', async () => {
    const client = await TestClient.connect(app());
    expect(await client.request('ping')).toEqual({});
  });

  it('says clearly when the client never declared the capability', async () => {
    const client = await TestClient.connect(app());
    const result = await client.callTool('think');
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'The client did not declare the sampling capability, so sampling/createMessage cannot be sent' }],
    });
  });

  it('times out, cancels the request at the client, and says so', async () => {
    const client = await TestClient.connect(app(), { handlers: { 'sampling/createMessage': () => new Promise(() => undefined) } });
    const result = await client.callTool('impatient');
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'The client did not answer sampling/createMessage within 50 ms' }] });
    const cancelled = client.notifications('notifications/cancelled');
    expect(cancelled).toEqual([{ requestId: expect.stringMatching(/^mcpkit-/), reason: 'timeout' }]);
  });

  it('turns a client error answer into a clear tool error', async () => {
    const client = await TestClient.connect(app(), { handlers: { 'sampling/createMessage': () => Promise.reject(new Error('user said no')) } });
    expect(firstText(await client.callTool('think'))).toBe('The client answered sampling/createMessage with error -32603: user said no');
  });
});

describe('completions', () => {
  it('completes prompt arguments with context and template variables, capped at 100', async () => {
    const client = await TestClient.connect(app());
    expect(client.server.capabilities.completions).toEqual({});
    expect(await client.complete({ type: 'ref/prompt', name: 'translate' }, { name: 'language', value: 'e' })).toEqual({
      values: ['english', 'esperanto'],
      total: 2,
      hasMore: false,
    });
    expect(await client.complete({ type: 'ref/prompt', name: 'translate' }, { name: 'language', value: 'lang' }, { style: 'many' })).toEqual({
      values: Array.from({ length: 100 }, (_, i) => `lang${i}`),
      total: 150,
      hasMore: true,
    });
    expect(await client.complete({ type: 'ref/prompt', name: 'translate' }, { name: 'style', value: '' })).toEqual({ values: [] });
    expect(await client.complete({ type: 'ref/resource', uri: 'docs://{section}' }, { name: 'section', value: 'in' })).toEqual({
      values: ['intro', 'install'],
      total: 2,
      hasMore: false,
    });
    await expect(client.complete({ type: 'ref/prompt', name: 'nope' }, { name: 'x', value: '' })).rejects.toMatchObject({ code: -32602 });
  });
});

describe('resource subscriptions', () => {
  it('notifies subscribed clients only, until they unsubscribe', async () => {
    const features = app();
    const subscribed = await TestClient.connect(features);
    const bystander = await TestClient.connect(features);
    expect(subscribed.server.capabilities.resources).toEqual({ subscribe: true });
    await subscribed.subscribe('docs://intro');
    features.resourceUpdated('docs://intro');
    features.resourceUpdated('docs://usage');
    expect(subscribed.notifications('notifications/resources/updated')).toEqual([{ uri: 'docs://intro' }]);
    expect(bystander.notifications('notifications/resources/updated')).toEqual([]);
    await subscribed.request('resources/unsubscribe', { uri: 'docs://intro' });
    features.resourceUpdated('docs://intro');
    expect(subscribed.notifications('notifications/resources/updated')).toHaveLength(1);
    subscribed.close();
    bystander.close();
    expect(() => app({}).resourceUpdated('x://y')).toThrow(/subscriptions: true/);
  });
});
