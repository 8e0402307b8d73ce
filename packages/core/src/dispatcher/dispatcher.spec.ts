import { IsInt, Min } from 'class-validator';
import pino from 'pino';
import { createApp } from '../server/create-app';
import { Tool } from '../decorators/tool.decorator';
import { classify } from '../eras/classify';
import type { HandlerContext } from './handler-context';
import type { Channel } from './channel';
import type { Dispatcher } from './dispatcher';

class WaitInput {
  @IsInt()
  @Min(0)
  ms: number;
}

const seen: { signal?: AbortSignal; session?: unknown } = {};

class Tools {
  @Tool()
  echo(input: WaitInput, ctx: HandlerContext) {
    seen.session = ctx.session;
    return `echo ${input.ms}`;
  }

  @Tool()
  async wait(input: WaitInput, ctx: HandlerContext) {
    seen.signal = ctx.signal;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, input.ms);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    return 'waited';
  }
}

const MODERN = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

function dispatcher(): Dispatcher {
  return createApp({ name: 't', version: '1', providers: [Tools], logger: pino({ level: 'silent' }) }).dispatcher;
}

/** A channel without a session, one per request, as stateless HTTP makes them. */
function scope(d: Dispatcher): Channel {
  return d.channel({ kind: 'http', headers: {} });
}

function call(id: number, name: string, args: Record<string, unknown>) {
  return classify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: MODERN } });
}

describe('Dispatcher', () => {
  it('serves a stateless request with no session, shaped for its era', async () => {
    const d = dispatcher();
    const answer = (await d.handle(call(1, 'echo', { ms: 3 }), scope(d))) as any;
    expect(answer).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: 'echo 3' }], resultType: 'complete' } });
    expect(seen.session).toBeUndefined();
  });

  it("answers by the era's rules: invalid arguments, unknown tool, unknown method, a malformed message", async () => {
    const d = dispatcher();
    expect(await d.handle(call(2, 'echo', { ms: -1 }), scope(d))).toMatchObject({ id: 2, result: { isError: true, resultType: 'complete' } });
    expect(await d.handle(call(2, 'nope', {}), scope(d))).toMatchObject({ id: 2, error: { code: -32602 } });
    const unknown = classify({ jsonrpc: '2.0', id: 3, method: 'nope/nope', params: { _meta: MODERN } });
    expect(await d.handle(unknown, scope(d))).toMatchObject({ id: 3, error: { code: -32601 } });
    expect(await d.handle(classify({ jsonrpc: '2.0', id: 4 }), scope(d))).toMatchObject({ id: 4, error: { code: -32600 } });
  });

  it('refuses a legacy-era request on a channel without a session and ignores notifications and responses', async () => {
    const d = dispatcher();
    const legacy = classify({ jsonrpc: '2.0', id: 5, method: 'tools/list' });
    expect(await d.handle(legacy, scope(d))).toMatchObject({ id: 5, error: { code: -32600, message: expect.stringContaining('initialize') } });
    expect(await d.handle(classify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }), scope(d))).toBeUndefined();
    expect(await d.handle(classify({ jsonrpc: '2.0', id: 9, result: {} }), scope(d))).toBeUndefined();
  });

  it('cancels a request whose caller leaves, and answers nobody', async () => {
    const d = dispatcher();
    const channel = scope(d);
    const pending = d.handle(call(6, 'wait', { ms: 10_000 }), channel);
    await new Promise((resolve) => setImmediate(resolve));
    channel.close();
    expect(seen.signal?.aborted).toBe(true);
    // Cut short because its own client went: the answer would reach nobody, yet the request still ends once.
    await expect(pending).resolves.toMatchObject({ id: 6, error: { code: -32603, message: expect.stringContaining('cut short') } });
  });

  it('keeps requests apart: the same id on two channels runs twice', async () => {
    const d = dispatcher();
    const [a, b] = await Promise.all([d.handle(call(7, 'echo', { ms: 1 }), scope(d)), d.handle(call(7, 'echo', { ms: 2 }), scope(d))]);
    expect(a).toMatchObject({ id: 7, result: { content: [{ text: 'echo 1' }] } });
    expect(b).toMatchObject({ id: 7, result: { content: [{ text: 'echo 2' }] } });
  });

  describe('on a connection (every transport with a client of its own)', () => {
    const app = () => createApp({ name: 't', version: '1', providers: [Tools], logger: pino({ level: 'silent' }) });
    const initialize = (version: string) => classify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: version, capabilities: {} } });

    it('serves both eras, a batch where the negotiated revision has them, and a cancellation', async () => {
      const served = app();
      const connection = served.connect({ kind: 'memory' });
      expect(await served.dispatcher.handle(initialize('2025-03-26'), connection)).toMatchObject({ id: 0, result: { protocolVersion: '2025-03-26' } });
      expect(await served.dispatcher.handle(call(1, 'echo', { ms: 1 }), connection)).toMatchObject({ id: 1, result: { resultType: 'complete' } });
      const batch = [
        { jsonrpc: '2.0', id: 2, method: 'ping' },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { ms: 4 } } },
      ];
      expect(await served.dispatcher.handle(batch, connection)).toEqual([
        { jsonrpc: '2.0', id: 2, result: {} },
        expect.objectContaining({ id: 3, result: expect.objectContaining({ content: [{ type: 'text', text: 'echo 4' }] }) }),
      ]);
      const waiting = served.dispatcher.handle(
        classify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'wait', arguments: { ms: 10_000 } } }),
        connection,
      );
      await new Promise((resolve) => setImmediate(resolve));
      expect(connection.pending).toBe(1);
      await served.dispatcher.handle(classify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 4 } }), connection);
      // Cancelled by its client: nothing is answered (utilities/cancellation).
      await expect(waiting).resolves.toBeUndefined();
      expect(connection.pending).toBe(0);
    });

    it('refuses a batch before a revision that has them, and a channel core did not make', async () => {
      const served = app();
      const connection = served.connect({ kind: 'memory' });
      await served.dispatcher.handle(initialize('2025-11-25'), connection);
      expect(await served.dispatcher.handle([{ jsonrpc: '2.0', id: 1, method: 'ping' }], connection)).toMatchObject({
        id: null,
        error: { code: -32600, message: expect.stringContaining('2025-03-26') },
      });
      const foreign: Channel = { transport: { kind: 'memory' }, close: () => undefined };
      expect(() => served.dispatcher.handle(call(1, 'echo', { ms: 1 }), foreign)).toThrow(TypeError);
    });
  });
});
