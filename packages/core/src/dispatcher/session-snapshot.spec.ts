import pino from 'pino';
import { createApp } from '../server/create-app';
import { Resource } from '../decorators/resource.decorator';
import { Tool } from '../decorators/tool.decorator';
import type { JsonRpcMessage } from '../protocol/json-rpc';
import type { Connection } from './connection';
import type { ConnectionOptions } from './connection-options';
import type { SessionSnapshot } from '../model/session-snapshot';

class Things {
  @Tool()
  alpha(): string {
    return 'alpha';
  }

  @Resource({ uri: 'test://r' })
  r(): string {
    return 'r';
  }
}

const MODERN = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

function makeApp(dynamic = false) {
  return createApp({ name: 'snap', version: '1', providers: [Things], logger: pino({ level: 'silent' }), clientLogging: true, subscriptions: true, dynamic });
}

type App = ReturnType<typeof makeApp>;

/** A connection whose outbound messages land in `sent`. */
function open(app: App, options?: ConnectionOptions): { connection: Connection; sent: JsonRpcMessage[] } {
  const sent: JsonRpcMessage[] = [];
  const connection = app.connect({ kind: 'memory' }, options);
  connection.setOutbound((message) => sent.push(message));
  return { connection, sent };
}

/** Through JSON, as it travels between processes. */
const wire = (snapshot: SessionSnapshot | undefined): SessionSnapshot => JSON.parse(JSON.stringify(snapshot)) as SessionSnapshot;

const methods = (sent: JsonRpcMessage[]) => sent.map((message) => ('method' in message ? message.method : undefined));

describe('session snapshots', () => {
  const opened: Connection[] = [];
  const track = <T extends { connection: Connection }>(value: T): T => {
    opened.push(value.connection);
    return value;
  };
  afterEach(() => opened.splice(0).forEach((connection) => connection.close()));

  it('holds the answer to logging/setLevel and resources/subscribe until a sharing store has the change', async () => {
    const told: string[] = [];
    const pending: Array<() => void> = [];
    const later = (what: string) =>
      new Promise<void>((resolve) =>
        pending.push(() => {
          told.push(what);
          resolve();
        }),
      );
    const { connection } = track(
      open(makeApp(), { onLogLevel: (level) => later(`level ${level}`), onSubscription: (uri, on) => later(`${on ? 'sub' : 'unsub'} ${uri}`) }),
    );
    await connection.receive({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    });
    for (const [id, method, params] of [
      [2, 'logging/setLevel', { level: 'info' }],
      [3, 'resources/subscribe', { uri: 'test://r' }],
    ] as const) {
      let answered = false;
      const answer = connection.receive({ jsonrpc: '2.0', id, method, params }).then((response) => ((answered = true), response));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(answered).toBe(false);
      pending.shift()!();
      expect(await answer).toEqual({ jsonrpc: '2.0', id, result: {} });
    }
    expect(told).toEqual(['level info', 'sub test://r']);
    // A level adopted from elsewhere tells no store (it came from one).
    connection.logLevel = 'error';
    expect(pending).toHaveLength(0);
    expect(connection.logLevel).toBe('error');
  });

  it('is undefined while there is nothing to keep', () => {
    const { connection } = track(open(makeApp()));
    expect(connection.snapshot()).toBeUndefined();
  });

  it('handshake era: the client, its log level and its subscriptions survive a round trip through JSON', async () => {
    const app = makeApp();
    const { connection } = track(open(app));
    await connection.receive({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: { roots: {} }, clientInfo: { name: 'c', version: '1' } },
    });
    await connection.receive({ jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'error' } });
    await connection.receive({ jsonrpc: '2.0', id: 3, method: 'resources/subscribe', params: { uri: 'test://r' } });
    const snapshot = wire(connection.snapshot());
    expect(snapshot).toEqual({
      client: { protocolVersion: '2025-06-18', capabilities: { roots: {} }, info: { name: 'c', version: '1' } },
      logLevel: 'error',
      subscriptions: ['test://r'],
    });

    connection.close();
    const { connection: next, sent } = track(open(app, { restore: snapshot }));
    expect(next.isInitialized).toBe(true);
    expect(next.protocolVersion).toBe('2025-06-18');
    expect(next.logLevel).toBe('error');
    // Past the handshake: served at once, and a second initialize is refused.
    expect(await next.receive({ jsonrpc: '2.0', id: 4, method: 'tools/list' })).toMatchObject({ result: { tools: [{ name: 'alpha' }] } });
    expect(await next.receive({ jsonrpc: '2.0', id: 5, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {} } })).toMatchObject({
      error: { code: -32600 },
    });
    app.resourceUpdated('test://r');
    expect(sent).toEqual([{ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://r' } }]);
    expect(next.snapshot()).toEqual(snapshot);
  });

  it('stateless era: a restored listen is not acknowledged again, still delivers, and ends on cancellation', async () => {
    const app = makeApp(true);
    const { connection, sent } = track(open(app));
    void connection.receive({ jsonrpc: '2.0', id: 'L', method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: MODERN } });
    expect(methods(sent)).toEqual(['notifications/subscriptions/acknowledged']);
    const snapshot = wire(connection.snapshot());
    expect(snapshot).toEqual({ listens: [{ id: 'L', params: { notifications: { toolsListChanged: true }, _meta: MODERN } }] });
    connection.close();

    const { connection: next, sent: nextSent } = track(open(app, { restore: snapshot }));
    expect(nextSent).toEqual([]);
    expect(next.snapshot()).toEqual(snapshot);
    app.disable('tool', 'alpha');
    expect(nextSent).toEqual([
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'L' } } },
    ]);
    await next.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'L' } });
    expect(next.snapshot()).toBeUndefined();
    app.enable('tool', 'alpha');
    expect(nextSent).toHaveLength(1);
  });

  it('restored listens wait for an outbound channel', () => {
    const app = makeApp(true);
    const snapshot: SessionSnapshot = { listens: [{ id: 7, params: { notifications: { toolsListChanged: true }, _meta: MODERN } }] };
    const connection = app.connect({ kind: 'memory' }, { restore: snapshot });
    opened.push(connection);
    expect(connection.snapshot()).toEqual(snapshot);
    const sent: JsonRpcMessage[] = [];
    connection.setOutbound((message) => sent.push(message));
    app.disable('tool', 'alpha');
    expect(sent).toHaveLength(1);
  });

  it('a listen the server can no longer read is dropped, the rest of the session is kept', () => {
    const app = makeApp(true);
    const { connection } = track(
      open(app, {
        restore: {
          client: { protocolVersion: '2025-11-25', capabilities: {} },
          listens: [
            { id: 1, params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '1999-01-01', 'io.modelcontextprotocol/clientCapabilities': {} } } },
          ],
        },
      }),
    );
    expect(connection.snapshot()).toEqual({ client: { protocolVersion: '2025-11-25', capabilities: {} } });
  });

  describe('announceListChanges', () => {
    it('declares listChanged for the lists the app serves, and announces each', async () => {
      const app = makeApp();
      expect(app.capabilities.tools).toEqual({});
      const { connection, sent } = track(open(app, { announceListChanges: true }));
      const init = await connection.receive({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
      expect(init).toMatchObject({ result: { capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true } } } });
      expect((init as unknown as { result: { capabilities: Record<string, unknown> } }).result.capabilities.prompts).toBeUndefined();
      connection.announceListChanges();
      expect(methods(sent)).toEqual(['notifications/tools/list_changed', 'notifications/resources/list_changed']);
      expect(connection.snapshot()?.announceListChanges).toBe(true);
    });

    it('announces nothing before the handshake, and nothing the client was not promised', async () => {
      const app = makeApp();
      const { connection, sent } = track(open(app, { announceListChanges: true }));
      connection.announceListChanges();
      expect(sent).toEqual([]);
      const { connection: plain, sent: plainSent } = track(open(app));
      await plain.receive({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
      plain.announceListChanges();
      expect(plainSent).toEqual([]);
    });

    it('a listen honours list changes the app did not declare, and a restored one hears the tagged announcement', async () => {
      const app = makeApp();
      const { connection, sent } = track(open(app, { announceListChanges: true }));
      void connection.receive({
        jsonrpc: '2.0',
        id: 'L',
        method: 'subscriptions/listen',
        params: { notifications: { toolsListChanged: true, promptsListChanged: true }, _meta: MODERN },
      });
      expect(sent).toEqual([
        {
          jsonrpc: '2.0',
          method: 'notifications/subscriptions/acknowledged',
          params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'L' }, notifications: { toolsListChanged: true } },
        },
      ]);
      const discover = await connection.receive({ jsonrpc: '2.0', id: 'd', method: 'server/discover', params: { _meta: MODERN } });
      expect(discover).toMatchObject({ result: { capabilities: { tools: { listChanged: true } } } });

      const { connection: next, sent: nextSent } = track(open(app, { restore: wire(connection.snapshot()) }));
      connection.close();
      next.announceListChanges();
      expect(nextSent).toEqual([
        { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'L' } } },
      ]);
    });
  });
});
