import { createApp, Tool, type Logger, type RequestContext, type Root, type RootsChange } from '@mcpkit/core';
import pino from 'pino';
import { firstText, TestClient } from '../src';

class Where {
  @Tool({ input: null })
  async where(_input: unknown, ctx: RequestContext) {
    return (await ctx.roots()).map((root) => root.uri).join(',');
  }

  @Tool({ input: null })
  async pingBack(_input: unknown, ctx: RequestContext) {
    await ctx.ping();
    return 'pong';
  }
}

/** An app whose hook records each change (and, with `read`, the roots it reads then). */
function rootsApp(options: { read?: boolean; rootsTimeoutMs?: number; logger?: Logger } = {}) {
  const changes: RootsChange[] = [];
  const seen: Root[][] = [];
  const app = createApp({
    name: 'roots',
    version: '1',
    providers: [Where],
    logger: options.logger ?? pino({ level: 'silent' }),
    rootsTimeoutMs: options.rootsTimeoutMs,
    onRootsChanged: async (change) => {
      changes.push(change);
      if (options.read) seen.push(await change.roots());
    },
  });
  return { app, changes, seen };
}

/** A client whose roots are `current[0]`, counting its `roots/list` answers. */
function rootsClient(current: Root[][]) {
  const asked: number[] = [];
  return { asked, handlers: { 'roots/list': () => (asked.push(1), { roots: current[0] }) } };
}

describe('ctx.roots() on a legacy session', () => {
  it('asks once per session, and again only after notifications/roots/list_changed, which runs the hook once', async () => {
    const current = [[{ uri: 'file:///one' }]];
    const { app, changes } = rootsApp();
    const roots = rootsClient(current);
    const client = await TestClient.connect(app, { handlers: roots.handlers });
    expect(firstText(await client.callTool('where'))).toBe('file:///one');
    expect(firstText(await client.callTool('where'))).toBe('file:///one');
    expect(roots.asked).toHaveLength(1);
    current[0] = [{ uri: 'file:///two' }, { uri: 'file:///three' }];
    await client.notify('notifications/roots/list_changed');
    expect(changes).toHaveLength(1);
    expect(changes[0].client.capabilities.roots).toEqual({});
    expect(firstText(await client.callTool('where'))).toBe('file:///two,file:///three');
    expect(firstText(await client.callTool('where'))).toBe('file:///two,file:///three');
    expect(roots.asked).toHaveLength(2);
  });

  it("gives the hook the new roots, asked once and shared with the session's next ctx.roots()", async () => {
    const current = [[{ uri: 'file:///one' }]];
    const { app, seen } = rootsApp({ read: true });
    const roots = rootsClient(current);
    const client = await TestClient.connect(app, { handlers: roots.handlers });
    current[0] = [{ uri: 'file:///two' }];
    await client.notify('notifications/roots/list_changed');
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([[{ uri: 'file:///two' }]]);
    expect(firstText(await client.callTool('where'))).toBe('file:///two');
    expect(roots.asked).toHaveLength(1);
  });

  it('logs a hook that throws, and the session goes on', async () => {
    const lines: unknown[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const app = createApp({
      name: 'roots',
      version: '1',
      providers: [Where],
      logger,
      onRootsChanged: () => {
        throw new Error('hook broke');
      },
    });
    const client = await TestClient.connect(app, { handlers: { 'roots/list': () => ({ roots: [{ uri: 'file:///a' }] }) } });
    await client.notify('notifications/roots/list_changed');
    expect(lines).toEqual([expect.objectContaining({ msg: 'onRootsChanged threw', err: expect.objectContaining({ message: 'hook broke' }) })]);
    expect(firstText(await client.callTool('where'))).toBe('file:///a');
  });

  it('answers a malformed roots/list answer with a clear error, keeps nothing, and asks again next time', async () => {
    const answers: Record<string, unknown>[] = [{ roots: 'file:///not-a-list' }, {}, { roots: [{ uri: 'file:///a' }] }];
    const client = await TestClient.connect(rootsApp().app, { handlers: { 'roots/list': () => answers.shift() ?? { roots: [] } } });
    for (let i = 0; i < 2; i += 1) {
      const bad = await client.callTool('where');
      expect(bad.isError).toBe(true);
      expect(firstText(bad)).toBe("The client's roots/list answer is malformed: it has no roots array");
    }
    expect(firstText(await client.callTool('where'))).toBe('file:///a');
    expect(answers).toHaveLength(0);
  });

  it('does not ask roots/list of a client that sends list_changed without declaring roots', async () => {
    const lines: Array<{ msg: string; err?: { message: string } }> = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const { app, changes } = rootsApp({ read: true, logger });
    let asked = 0;
    const client = await TestClient.connect(app, { capabilities: {}, handlers: { 'roots/list': () => (asked++, { roots: [] }) } });
    await client.notify('notifications/roots/list_changed');
    await new Promise((resolve) => setImmediate(resolve));
    expect(changes).toHaveLength(1);
    expect(asked).toBe(0);
    expect(lines).toEqual([
      expect.objectContaining({
        msg: 'onRootsChanged threw',
        err: expect.objectContaining({ message: expect.stringMatching(/did not declare the roots capability/) }),
      }),
    ]);
  });

  it('folds a storm of list_changed into one more hook run: one run at a time, not one roots/list per notification', async () => {
    let running = 0;
    let peak = 0;
    const runs: Root[][] = [];
    const gates: Array<() => void> = [];
    const app = createApp({
      name: 'roots',
      version: '1',
      providers: [Where],
      logger: pino({ level: 'silent' }),
      onRootsChanged: async (change) => {
        running += 1;
        peak = Math.max(peak, running);
        runs.push(await change.roots());
        await new Promise<void>((resolve) => gates.push(resolve));
        running -= 1;
      },
    });
    const current = [[{ uri: 'file:///one' }]];
    const roots = rootsClient(current);
    const client = await TestClient.connect(app, { handlers: roots.handlers });
    await client.notify('notifications/roots/list_changed');
    await new Promise((resolve) => setImmediate(resolve));
    current[0] = [{ uri: 'file:///storm' }];
    await Promise.all(Array.from({ length: 1_000 }, () => client.notify('notifications/roots/list_changed')));
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toHaveLength(1);
    // The kept roots went with the storm: a tool sees the new ones meanwhile.
    expect(firstText(await client.callTool('where'))).toBe('file:///storm');
    gates.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toEqual([[{ uri: 'file:///one' }], [{ uri: 'file:///storm' }]]);
    gates.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toHaveLength(2);
    expect(peak).toBe(1);
    expect(roots.asked).toHaveLength(2);
  });

  it('refuses a bad rootsTimeoutMs and onRootsChanged at start-up', () => {
    expect(() => createApp({ name: 'x', version: '1', providers: [Where], rootsTimeoutMs: 0 })).toThrow(/rootsTimeoutMs/);
    expect(() => createApp({ name: 'x', version: '1', providers: [Where], onRootsChanged: 'no' as never })).toThrow(/onRootsChanged/);
  });
});

describe('a client that declares roots but never answers', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  it('costs one wait of rootsTimeoutMs (default 5 s), then no more until it answers something', async () => {
    const { app } = rootsApp();
    let asked = 0;
    let answering = false;
    const client = await TestClient.connect(app, {
      handlers: {
        'roots/list': () => {
          asked += 1;
          return answering ? { roots: [{ uri: 'file:///late' }] } : new Promise(() => undefined);
        },
      },
    });
    let settled = false;
    const first = client.callTool('where').finally(() => (settled = true));
    await jest.advanceTimersByTimeAsync(4_999);
    expect(settled).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await first).toMatchObject({ isError: true, content: [{ text: 'The client did not answer roots/list within 5000 ms' }] });
    // No timer runs now: the second call answers without waiting, and asks nothing.
    const second = await client.callTool('where');
    expect(second.isError).toBe(true);
    expect(firstText(second)).toMatch(/earlier in this session; it is not asked again until it answers a request/);
    expect(asked).toBe(1);
    // It answers the server's ping: it is asked again.
    answering = true;
    expect(firstText(await client.callTool('pingBack'))).toBe('pong');
    expect(firstText(await client.callTool('where'))).toBe('file:///late');
    expect(asked).toBe(2);
  });

  it('keeps rootsTimeoutMs a hard bound: progress notifications from the client do not stretch the wait', async () => {
    const { app } = rootsApp();
    const tokens: unknown[] = [];
    const client = await TestClient.connect(app, {
      handlers: {
        'roots/list': (params) => {
          tokens.push((params._meta as Record<string, unknown>).progressToken);
          return new Promise(() => undefined);
        },
      },
    });
    let settled = false;
    const first = client.callTool('where').finally(() => (settled = true));
    for (let i = 1; i <= 4; i += 1) {
      await jest.advanceTimersByTimeAsync(1_000);
      await client.notify('notifications/progress', { progressToken: tokens[0], progress: i });
    }
    await jest.advanceTimersByTimeAsync(1_000);
    expect(settled).toBe(true);
    expect(firstText(await first)).toBe('The client did not answer roots/list within 5000 ms');
  });

  it('waits as long as rootsTimeoutMs says', async () => {
    const { app } = rootsApp({ rootsTimeoutMs: 200 });
    const client = await TestClient.connect(app, { handlers: { 'roots/list': () => new Promise(() => undefined) } });
    const first = client.callTool('where');
    await jest.advanceTimersByTimeAsync(200);
    expect(firstText(await first)).toBe('The client did not answer roots/list within 200 ms');
  });
});

describe('ctx.roots() on 2026-07-28', () => {
  it('asks in each request its own input-required round: no session, nothing kept, no hook', async () => {
    const current = [[{ uri: 'file:///one' }]];
    const { app, changes } = rootsApp();
    const roots = rootsClient(current);
    const client = await TestClient.connect(app, { era: 'modern', handlers: roots.handlers });
    expect(firstText(await client.callTool('where'))).toBe('file:///one');
    current[0] = [{ uri: 'file:///two' }];
    expect(firstText(await client.callTool('where'))).toBe('file:///two');
    expect(roots.asked).toHaveLength(2);
    await client.notify('notifications/roots/list_changed');
    expect(changes).toHaveLength(0);
  });
});
