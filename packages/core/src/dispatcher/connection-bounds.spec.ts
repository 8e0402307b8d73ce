import { IsBoolean } from 'class-validator';
import pino from 'pino';
import { createApp } from '../server/create-app';
import { Tool } from '../decorators/tool.decorator';
import { ExactNumberId } from '../protocol/exact-id';
import { parseMessage } from '../wire/parse-message';
import type { Connection } from './connection';
import type { RequestContext } from './request-context';

class Confirm {
  @IsBoolean()
  ok: boolean;
}

class Tools {
  @Tool({ input: null })
  async ask(_input: unknown, ctx: RequestContext) {
    const answer = await ctx.elicit('Go on?', Confirm);
    return JSON.stringify(answer);
  }

  @Tool({ input: null })
  hold(_input: unknown, ctx: RequestContext) {
    return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve('stopped')));
  }
}

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
