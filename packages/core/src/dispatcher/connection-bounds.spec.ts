import { IsBoolean } from 'class-validator';
import pino from 'pino';
import { createApp } from '../server/create-app';
import { Tool } from '../decorators/tool.decorator';
import { ExactNumberId } from '../protocol/exact-id';
import { parseMessage } from '../wire/parse-message';
import type { Connection } from './connection';
import type { HandlerContext } from './handler-context';

class Confirm {
  @IsBoolean()
  ok: boolean;
}

class Tools {
  @Tool({ input: null })
  async ask(_input: unknown, ctx: HandlerContext) {
    const answer = await ctx.elicit('Go on?', Confirm);
    return JSON.stringify(answer);
  }

  @Tool({ input: null })
  hold(_input: unknown, ctx: HandlerContext) {
    return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve('stopped')));
  }

  // Ignores its signal: runs until the test lets it go.
  @Tool({ input: null })
  stubborn() {
    return new Promise((resolve) => stubborn.push(() => resolve('done')));
  }
}

const stubborn: Array<() => void> = [];

const MODERN = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };

function app(maxBatchLength?: number) {
  return createApp({ name: 'bounds', version: '1.0.0', providers: [Tools], logger: pino({ level: 'silent' }), maxBatchLength });
}

async function open(maxBatchLength?: number): Promise<Connection> {
  const connection = app(maxBatchLength).connect({ kind: 'memory' });
  await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {} } });
  return connection;
}

describe('Connection bounds', () => {
  it('refuses a batch over maxBatchLength with one -32600, running none of it', async () => {
    const connection = await open(3);
    const batch = Array.from({ length: 4 }, (_, id) => ({ jsonrpc: '2.0', id: id + 1, method: 'tools/call', params: { name: 'hold' } }));
    expect(await connection.receive(batch)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('at most 3') } });
    expect(connection.pending).toBe(0);
    expect(await connection.receive(batch.slice(0, 1).map((m) => ({ ...m, method: 'ping' })))).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
  });

  it('defaults maxBatchLength to 100', async () => {
    const connection = await open();
    const ping = (count: number) => Array.from({ length: count }, (_, id) => ({ jsonrpc: '2.0', id, method: 'ping' }));
    expect(await connection.receive(ping(100))).toHaveLength(100);
    expect(await connection.receive(ping(101))).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('answers -32600 for a 2026-07-28 request inside a batch, and keeps nothing in flight', async () => {
    const connection = await open();
    const answer = await connection.receive([
      { jsonrpc: '2.0', id: 1, method: 'subscriptions/listen', params: { _meta: MODERN } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'hold', _meta: MODERN } },
      { jsonrpc: '2.0', id: 3, method: 'ping' },
    ]);
    expect(answer).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32600, message: expect.stringContaining('batch') } },
      { jsonrpc: '2.0', id: 2, error: { code: -32600, message: expect.stringContaining('batch') } },
      { jsonrpc: '2.0', id: 3, result: {} },
    ]);
    expect(connection.pending).toBe(0);
  });

  it('answers once and frees the id when building the error answer throws', async () => {
    const application = app();
    const connection = application.connect({ kind: 'memory' });
    const sign = jest.spyOn(application.settings.requestState, 'sign').mockImplementation(() => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    const call = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'ask', arguments: {}, _meta: MODERN } };
    expect(await connection.receive(call)).toEqual({ jsonrpc: '2.0', id: 5, error: { code: -32603, message: 'Internal error' } });
    expect(connection.pending).toBe(0);
    sign.mockRestore();
    // The same id is free again.
    expect(await connection.receive(call)).toMatchObject({ id: 5, result: { resultType: 'input_required' } });
  });

  it('answers a request cut short by closing the connection (shutdown), unlike a cancelled one', async () => {
    const connection = await open();
    const held = connection.receive({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'hold', arguments: {} } });
    connection.close();
    expect(await held).toEqual({ jsonrpc: '2.0', id: 9, error: { code: -32603, message: expect.stringContaining('closed this connection') } });
  });

  it('answers an id beyond 2^53 with that id, tells neighbours apart, and cancellation finds it', async () => {
    const connection = await open();
    const parsed = (text: string) => (parseMessage(text) as { message: unknown }).message;
    const answer = connection.receive(parsed('{"jsonrpc":"2.0","id":9223372036854775807,"method":"tools/call","params":{"name":"hold","arguments":{}}}'));
    const neighbour = connection.receive(parsed('{"jsonrpc":"2.0","id":9223372036854775806,"method":"tools/call","params":{"name":"hold","arguments":{}}}'));
    expect(connection.pending).toBe(2);
    await connection.receive(parsed('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9223372036854775807}}'));
    expect(await answer).toBeUndefined();
    expect(connection.pending).toBe(1);
    await connection.receive(parsed('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9223372036854775806}}'));
    expect(await neighbour).toBeUndefined();
    expect(connection.pending).toBe(0);
    const ping = parseMessage('{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}');
    const pong = (await connection.receive((ping as { message: unknown }).message)) as { id: unknown };
    expect(pong.id).toBeInstanceOf(ExactNumberId);
    expect(String(pong.id)).toBe('123456789012345678901234567890');
  });
});

describe('Connection maxRequestsInFlight', () => {
  const call = (id: number | string, name: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });
  const cancel = (requestId: number | string) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } });

  async function limited(maxRequestsInFlight?: number): Promise<{ connection: Connection; warnings: Array<Record<string, unknown>> }> {
    const warnings: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line) as Record<string, unknown>) });
    const application = createApp({ name: 'bounds', version: '1.0.0', providers: [Tools], logger, maxRequestsInFlight });
    const connection = application.connect({ kind: 'memory' });
    await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {} } });
    return { connection, warnings };
  }

  it('answers -32005 past the bound, counting cancelled handlers that still run, logs once, and serves again below it', async () => {
    const { connection, warnings } = await limited(3);
    const held = [connection.receive(call(1, 'hold')), connection.receive(call(2, 'hold')), connection.receive(call(3, 'stubborn'))];
    const refusal = (id: number | string) => ({
      jsonrpc: '2.0',
      id,
      error: {
        code: -32005,
        message: 'Too many requests in flight: this connection already runs 3; wait for some to finish (or cancel them) and send again',
        data: { limit: 3 },
      },
    });
    expect(await connection.receive(call(4, 'hold'))).toEqual(refusal(4));
    expect(await connection.receive({ jsonrpc: '2.0', id: 5, method: 'ping' })).toEqual(refusal(5));
    // Cancelled, but its handler ignores the signal: it still counts.
    await connection.receive(cancel(3));
    expect(await connection.receive(call(6, 'hold'))).toEqual(refusal(6));
    expect(warnings.filter((line) => line.msg === 'refused a request over maxRequestsInFlight')).toEqual([expect.objectContaining({ limit: 3, rpcId: 4 })]);
    await connection.receive(cancel(1));
    expect(await held[0]).toBeUndefined();
    expect(await connection.receive({ jsonrpc: '2.0', id: 7, method: 'ping' })).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    stubborn.splice(0).forEach((release) => release());
    await connection.receive(cancel(2));
    await Promise.all(held);
    expect(connection.pending).toBe(0);
  });

  it('defaults to 1 000, and counts a batch element by element', async () => {
    const { connection } = await limited();
    const running = Array.from({ length: 999 }, (_, i) => connection.receive(call(`h${i}`, 'hold')));
    const batch = connection.receive([call('last', 'hold'), call('over', 'hold')]);
    expect(connection.pending).toBe(1_000);
    connection.close();
    expect(await batch).toEqual([
      { jsonrpc: '2.0', id: 'last', error: { code: -32603, message: expect.stringContaining('closed this connection') } },
      { jsonrpc: '2.0', id: 'over', error: { code: -32005, message: expect.stringContaining('already runs 1000'), data: { limit: 1_000 } } },
    ]);
    await Promise.all(running);
  });

  it('cancels the requests of a message whose answers can no longer reach anyone (unreachable), and answers nothing', async () => {
    const { connection } = await limited();
    const listeners: Array<() => void> = [];
    const answer = connection.receive(call(1, 'hold'), { unreachable: (listener) => listeners.push(listener) });
    expect(connection.pending).toBe(1);
    listeners.forEach((listener) => listener());
    expect(await answer).toBeUndefined();
    expect(connection.pending).toBe(0);
  });
});

describe('Connection maxSubscriptions', () => {
  it('defaults to 1 000 URIs per session, refuses one more with -32602, and createApp refuses a bound that is no positive integer', async () => {
    const connection = createApp({ name: 'bounds', version: '1.0.0', providers: [Tools], logger: pino({ level: 'silent' }), subscriptions: true }).connect({
      kind: 'memory',
    });
    await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
    const subscribe = (n: number) => connection.receive({ jsonrpc: '2.0', id: n, method: 'resources/subscribe', params: { uri: `memo://${n}` } });
    for (let n = 1; n <= 1_000; n++) expect(await subscribe(n)).toEqual({ jsonrpc: '2.0', id: n, result: {} });
    expect(await subscribe(1_001)).toMatchObject({ id: 1_001, error: { code: -32602, data: { limit: 1_000 } } });
    for (const bound of [0, 1.5, -1]) {
      expect(() => createApp({ name: 'bounds', version: '1.0.0', providers: [Tools], maxSubscriptions: bound })).toThrow(
        /option "maxSubscriptions" must be an integer ≥ 1/,
      );
    }
  });
});
