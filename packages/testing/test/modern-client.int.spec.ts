import { createApp, DefinitionError, Field, Resource, ResourceTemplate, Tool, type RequestContext } from '@mcpkit/core';
import { IsBoolean, IsString } from 'class-validator';
import pino from 'pino';
import { firstText, RpcError, TestClient } from '../src';

class Confirm {
  @Field({ description: 'Go ahead?' })
  @IsBoolean()
  ok: boolean;
}

class NameInput {
  @IsString()
  name: string;
}

class Surface {
  @Tool()
  async greet(input: NameInput, ctx: RequestContext) {
    ctx.log.info(`greeting ${input.name}`);
    const first = await ctx.elicit(`Greet ${input.name}?`, Confirm, { key: 'first' });
    if (first.action !== 'accept' || !first.content.ok) return 'not greeted';
    const second = await ctx.elicit('Loudly?', Confirm, { key: 'second' });
    return second.action === 'accept' && second.content.ok ? `HELLO ${input.name.toUpperCase()}` : `hello ${input.name}`;
  }

  @Tool({ input: null })
  where(_input: unknown, ctx: RequestContext) {
    return `${ctx.client.protocolVersion} ${ctx.session === undefined ? 'stateless' : 'session'}`;
  }

  @Resource({ uri: 'c://default' })
  plain() {
    return 'plain';
  }

  @Resource({ uri: 'c://changelog', cache: { ttlMs: 60_000, scope: 'public' } })
  changelog() {
    return 'v1';
  }

  @ResourceTemplate({ uriTemplate: 'c://users/{id}', cache: { ttlMs: 1_000 } })
  user({ id }: { id: string }, ctx: RequestContext) {
    // Whoever asks for "me" gets themselves: that answer depends on the caller.
    if (id === 'me') ctx.setCacheHint({ scope: 'private', ttlMs: 0 });
    if (id === 'team') ctx.setCacheHint({ scope: 'private', ttlMs: undefined });
    return `user ${id}`;
  }

  @Resource({ uri: 'c://asks' })
  async asks(_params: unknown, ctx: RequestContext) {
    const answer = await ctx.elicit('Which?', Confirm);
    return answer.action === 'accept' ? `chose ${String(answer.content.ok)}` : 'none';
  }
}

const logger = pino({ level: 'silent' });
const app = createApp({
  name: 'modern-client',
  version: '1.0.0',
  instructions: 'Test me.',
  providers: [Surface],
  logger,
  clientLogging: true,
  dynamic: true,
  cache: { lists: { ttlMs: 30_000 }, reads: { ttlMs: 500 } },
});

describe('TestClient on the 2026-07-28 era', () => {
  it('discovers instead of initializing and sends _meta on every request', async () => {
    const client = await TestClient.connect(app, { era: 'modern' });
    expect(client.era).toBe('modern');
    expect(client.server).toEqual({
      protocolVersion: '2026-07-28',
      capabilities: expect.objectContaining({ tools: { listChanged: true } }),
      serverInfo: { name: 'modern-client', version: '1.0.0' },
      instructions: 'Test me.',
    });
    expect(firstText(await client.callTool('where'))).toBe('2026-07-28 stateless');
    const legacy = await TestClient.connect(app);
    expect(legacy.era).toBe('legacy');
    expect(firstText(await legacy.callTool('where'))).toBe('2025-11-25 session');
  });

  it('answers input-required rounds with the same handlers, and counts the rounds', async () => {
    const answers = [
      { action: 'accept', content: { ok: true } },
      { action: 'accept', content: { ok: true } },
    ];
    const client = await TestClient.connect(app, { era: 'modern', handlers: { 'elicitation/create': () => answers.shift()! } });
    const result = await client.callTool('greet', { name: 'ada' });
    expect(firstText(result)).toBe('HELLO ADA');
    expect(result).toMatchObject({ resultType: 'complete' });
    expect(client.rounds).toBe(2);
    expect(client.messages.filter((message) => message.method === 'elicitation/create').map((message) => [message.inputKey, message.params?.message])).toEqual([
      ['first', 'Greet ada?'],
      ['second', 'Loudly?'],
    ]);
    // The same test against the handshake era: requests instead of rounds.
    const legacyAnswers = [{ action: 'accept', content: { ok: true } }, { action: 'decline' }];
    const legacy = await TestClient.connect(app, { handlers: { 'elicitation/create': () => legacyAnswers.shift()! } });
    expect(firstText(await legacy.callTool('greet', { name: 'ada' }))).toBe('hello ada');
    expect(legacy.messages.filter((message) => message.method === 'elicitation/create')).toHaveLength(2);
  });

  it('reports a missing capability, a missing handler and too many rounds as errors', async () => {
    const bare = await TestClient.connect(app, { era: 'modern' });
    await expect(bare.callTool('greet', { name: 'x' })).rejects.toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
    const noHandler = await TestClient.connect(app, { era: 'modern', capabilities: { elicitation: {} } });
    await expect(noHandler.callTool('greet', { name: 'x' })).rejects.toThrow('No test handler for elicitation/create (input request "first")');
    const stubborn = await TestClient.connect(app, {
      era: 'modern',
      maxRounds: 1,
      handlers: { 'elicitation/create': () => ({ action: 'accept', content: { ok: true } }) },
    });
    await expect(stubborn.callTool('greet', { name: 'x' })).rejects.toThrow(RpcError);
  });

  it('puts the log level into _meta instead of calling logging/setLevel', async () => {
    const client = await TestClient.connect(app, { era: 'modern', handlers: { 'elicitation/create': () => ({ action: 'decline' }) } });
    await client.callTool('greet', { name: 'quiet' });
    expect(client.notifications('notifications/message')).toEqual([]);
    await client.setLogLevel('info');
    await client.callTool('greet', { name: 'loud' });
    // Two rounds, two runs of the code before the question: the log line comes once per round.
    expect(client.notifications('notifications/message')).toEqual([
      { level: 'info', data: 'greeting loud' },
      { level: 'info', data: 'greeting loud' },
    ]);
  });

  it('listens for list changes through subscriptions/listen', async () => {
    const client = await TestClient.connect(app, { era: 'modern' });
    // No subscriptions on this app: the acknowledgement drops what it cannot honour.
    const listening = await client.listen({ toolsListChanged: true, resourceSubscriptions: ['c://default'] });
    expect(listening.acknowledged).toEqual({ toolsListChanged: true });
    app.disable('tool', 'where');
    app.enable('tool', 'where');
    const changes = client.notifications('notifications/tools/list_changed');
    expect(changes).toHaveLength(2);
    expect(changes[0]).toEqual({ _meta: { 'io.modelcontextprotocol/subscriptionId': expect.anything() } });
    await listening.close();
    app.disable('tool', 'where');
    app.enable('tool', 'where');
    expect(client.notifications('notifications/tools/list_changed')).toHaveLength(2);
    await expect((await TestClient.connect(app)).listen({})).rejects.toThrow(/era: "modern"/);
  });
});

describe('cache hints on 2026-07-28 results', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await TestClient.connect(app, { era: 'modern', handlers: { 'elicitation/create': () => ({ action: 'accept', content: { ok: true } }) } });
  });

  it('uses the app-level hints for discover, lists and reads', async () => {
    expect(await client.request('server/discover')).toMatchObject({ ttlMs: 30_000, cacheScope: 'public' });
    expect(await client.request('tools/list')).toMatchObject({ ttlMs: 30_000, cacheScope: 'public' });
    expect(await client.request('resources/templates/list')).toMatchObject({ ttlMs: 30_000, cacheScope: 'public' });
    expect(await client.readResource('c://default')).toMatchObject({ ttlMs: 500, cacheScope: 'private' });
  });

  it('lets a resource or template override them, and a handler override its declaration', async () => {
    expect(await client.readResource('c://changelog')).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
    expect(await client.readResource('c://users/7')).toMatchObject({ ttlMs: 1_000, cacheScope: 'private' });
    expect(await client.readResource('c://users/me')).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    expect(await client.readResource('c://users/team')).toMatchObject({ ttlMs: 1_000, cacheScope: 'private' });
  });

  it('marks the answer of an input-required retry uncacheable, and puts hints on no other result', async () => {
    const read = await client.readResource('c://asks');
    expect(client.rounds).toBe(1);
    expect(read).toMatchObject({ ttlMs: 0, cacheScope: 'private', contents: [{ text: 'chose true' }] });
    const call = await client.callTool('where');
    expect(call).not.toHaveProperty('ttlMs');
    expect(call).not.toHaveProperty('cacheScope');
  });

  it('leaves handshake-era results alone', async () => {
    const legacy = await TestClient.connect(app);
    expect(await legacy.readResource('c://changelog')).not.toHaveProperty('ttlMs');
    expect(await legacy.request('tools/list')).not.toHaveProperty('cacheScope');
  });

  it('rejects a bad hint when the app is created', () => {
    class Bad {
      @Resource({ uri: 'c://bad', cache: { ttlMs: -5 } })
      bad() {
        return '';
      }
    }
    expect(() => createApp({ name: 'bad', version: '1', providers: [Bad], logger })).toThrow(DefinitionError);
    expect(() => createApp({ name: 'bad', version: '1', providers: [Bad], logger })).toThrow(/@Resource on Bad.bad is invalid: ttlMs -5/);
    expect(() => createApp({ name: 'bad', version: '1', providers: [], logger, cache: { lists: { scope: 'world' as 'public' } } })).toThrow(
      /option "cache\.lists\.scope" must be one of "public", "private" \(got "world"\)/,
    );
  });
});
