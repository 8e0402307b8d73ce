import { IsInt, IsString, Min } from 'class-validator';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createApp } from '../server/create-app';
import { Prompt } from '../decorators/prompt.decorator';
import { Resource } from '../decorators/resource.decorator';
import { Tool } from '../decorators/tool.decorator';
import type { JsonRpcResponse } from '../protocol/json-rpc';
import type { HandlerContext } from './handler-context';
import type { Connection } from './connection';

class SlowInput {
  @IsInt()
  @Min(0)
  ms: number;
}

class NameInput {
  @IsString()
  name: string;
}

const seen: { signal?: AbortSignal } = {};

class Everything {
  @Tool({ title: 'Echo', icons: [{ src: 'data:image/png;base64,AA==' }], annotations: { readOnlyHint: true }, _meta: { 'example.com/x': 1 } })
  echo(input: NameInput) {
    return input.name;
  }

  @Tool()
  async slow(input: SlowInput, ctx: HandlerContext) {
    seen.signal = ctx.signal;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, input.ms);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    return `slept ${input.ms}`;
  }

  @Resource({ uri: 'test://r', title: 'R' })
  r() {
    return 'r';
  }

  @Prompt()
  p() {
    return 'p';
  }
}

function makeApp(logger?: pino.Logger) {
  return createApp({
    name: 'everything',
    version: '1.2.3',
    title: 'Everything',
    instructions: 'Use it well',
    providers: [Everything],
    logger: logger ?? pino({ level: 'silent' }),
  });
}

async function open(version = '2025-11-25'): Promise<Connection> {
  const connection = makeApp().connect({ kind: 'memory' });
  const response = await connection.receive({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'c', version: '1' } },
  });
  expect(response).toHaveProperty('result');
  return connection;
}

// Responses are asserted structurally, so the helper hands them back loosely typed.
function rpc(connection: Connection, id: number | string, method: string, params?: unknown): Promise<any> {
  return connection.receive(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params }) as Promise<JsonRpcResponse>;
}

describe('Connection', () => {
  describe('initialize', () => {
    it.each(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'])('echoes the supported revision %s', async (version) => {
      const connection = makeApp().connect({ kind: 'memory' });
      const response = await rpc(connection, 1, 'initialize', { protocolVersion: version, capabilities: {}, clientInfo: { name: 'c', version: '1' } });
      expect(response).toMatchObject({ id: 1, result: { protocolVersion: version } });
    });

    it('answers its latest revision to an unknown one', async () => {
      const response = await rpc(makeApp().connect({ kind: 'memory' }), 1, 'initialize', { protocolVersion: '1999-01-01', capabilities: {} });
      expect(response).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
    });

    it('declares only the capabilities the app has, with server info and instructions', async () => {
      const response = await rpc(makeApp().connect({ kind: 'memory' }), 1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} });
      expect(response).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: {
          protocolVersion: '2025-11-25',
          capabilities: { tools: {}, resources: {}, prompts: {} },
          serverInfo: { name: 'everything', version: '1.2.3', title: 'Everything' },
          instructions: 'Use it well',
        },
      });
      class OnlyTools {
        @Tool()
        t() {
          return 't';
        }
      }
      const toolsOnly = createApp({ name: 'x', version: '1', providers: [OnlyTools], logger: pino({ level: 'silent' }) }).connect({ kind: 'memory' });
      const answer = await rpc(toolsOnly, 1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} });
      expect(answer.result.capabilities).toEqual({ tools: {} });
      expect(await rpc(toolsOnly, 2, 'resources/list')).toMatchObject({ id: 2, error: { code: -32601 } });
      expect(await rpc(toolsOnly, 3, 'prompts/get', { name: 'x' })).toMatchObject({ id: 3, error: { code: -32601 } });
    });

    it('drops serverInfo fields older revisions lack', async () => {
      const response = await rpc(makeApp().connect({ kind: 'memory' }), 1, 'initialize', { protocolVersion: '2025-03-26', capabilities: {} });
      expect(response.result.serverInfo).toEqual({ name: 'everything', version: '1.2.3' });
    });

    it('rejects a missing protocolVersion with -32602 and a second initialize with -32600', async () => {
      const connection = makeApp().connect({ kind: 'memory' });
      expect(await rpc(connection, 1, 'initialize', { capabilities: {} })).toMatchObject({ id: 1, error: { code: -32602 } });
      expect(await rpc(connection, 2, 'initialize', { protocolVersion: '2025-11-25', capabilities: 'x' })).toMatchObject({ id: 2, error: { code: -32602 } });
      expect(await rpc(connection, 3, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} })).toHaveProperty('result');
      expect(await rpc(connection, 4, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} })).toMatchObject({ id: 4, error: { code: -32600 } });
    });

    it('answers ping but nothing else before initialize', async () => {
      const connection = makeApp().connect({ kind: 'memory' });
      expect(await rpc(connection, 1, 'ping')).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
      expect(await rpc(connection, 2, 'tools/list')).toMatchObject({ id: 2, error: { code: -32600, message: expect.stringContaining('initialize') } });
    });
  });

  describe('JSON-RPC validation', () => {
    it.each([
      ['garbage', 'not json', -32700, null],
      ['a truncated object', '{"jsonrpc":"2.0","id":1', -32700, null],
    ])('answers %s with a parse error', async (_, text, code, id) => {
      const connection = await open();
      expect(await connection.receiveText(text)).toEqual({ jsonrpc: '2.0', id, error: { code, message: expect.any(String) } });
    });

    it.each([
      ['a number', 5, null],
      ['null', null, null],
      ['a wrong jsonrpc', { jsonrpc: '1.0', id: 7, method: 'ping' }, 7],
      ['a missing jsonrpc', { id: 7, method: 'ping' }, 7],
      ['no method', { jsonrpc: '2.0', id: 8 }, 8],
      ['a non-string method', { jsonrpc: '2.0', id: 9, method: 42 }, 9],
      ['id null', { jsonrpc: '2.0', id: null, method: 'ping' }, null],
      ['an object id', { jsonrpc: '2.0', id: { a: 1 }, method: 'ping' }, null],
      ['a batch on 2025-11-25', [{ jsonrpc: '2.0', id: 1, method: 'ping' }], null],
    ])('answers %s with -32600', async (_, message, id) => {
      const connection = await open();
      expect(await connection.receive(message)).toEqual({ jsonrpc: '2.0', id, error: { code: -32600, message: expect.any(String) } });
    });

    it('answers params that are not an object with -32602 and an unknown method with -32601, same id', async () => {
      const connection = await open();
      expect(await rpc(connection, 'a', 'tools/list', [1, 2])).toMatchObject({ id: 'a', error: { code: -32602 } });
      expect(await rpc(connection, 'b', 'no/such')).toEqual({ jsonrpc: '2.0', id: 'b', error: { code: -32601, message: 'Method not found: no/such' } });
    });

    it('sends nothing for notifications, known or not, and for responses', async () => {
      const connection = await open();
      expect(await connection.receive({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
      expect(await connection.receive({ jsonrpc: '2.0', method: 'notifications/whatever', params: { a: 1 } })).toBeUndefined();
      expect(await connection.receive({ jsonrpc: '2.0', id: 99, result: {} })).toBeUndefined();
    });

    it('rejects a second request with an id still in flight', async () => {
      const connection = await open();
      const first = rpc(connection, 5, 'tools/call', { name: 'slow', arguments: { ms: 50 } });
      expect(await rpc(connection, 5, 'ping')).toMatchObject({ id: 5, error: { code: -32600 } });
      expect(await first).toMatchObject({ id: 5, result: { content: [{ text: 'slept 50' }] } });
    });

    it('rejects a cursor, since everything fits on one page', async () => {
      const connection = await open();
      expect(await rpc(connection, 1, 'tools/list', { cursor: 'abc' })).toMatchObject({ id: 1, error: { code: -32602, message: 'Invalid cursor' } });
    });
  });

  describe('batches', () => {
    it('accepts them on 2025-03-26, answering requests only', async () => {
      const connection = await open('2025-03-26');
      const answer = await connection.receive([
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'no/such' },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { name: 'x' } } },
      ]);
      expect(answer).toEqual([
        { jsonrpc: '2.0', id: 1, result: {} },
        { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found: no/such' } },
        { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'x' }] } },
      ]);
      expect(await connection.receive([{ jsonrpc: '2.0', method: 'notifications/initialized' }])).toBeUndefined();
      expect(await connection.receive([])).toMatchObject({ id: null, error: { code: -32600 } });
    });

    it('rejects them before initialize', async () => {
      const connection = makeApp().connect({ kind: 'memory' });
      expect(await connection.receive([{ jsonrpc: '2.0', id: 1, method: 'ping' }])).toMatchObject({ id: null, error: { code: -32600 } });
    });
  });

  describe('concurrency and cancellation', () => {
    it('runs requests concurrently: a fast call is not held up by a slow one', async () => {
      const connection = await open();
      const order: string[] = [];
      const slow = rpc(connection, 1, 'tools/call', { name: 'slow', arguments: { ms: 200 } }).then(() => order.push('slow'));
      const fast = rpc(connection, 2, 'tools/call', { name: 'echo', arguments: { name: 'x' } }).then(() => order.push('fast'));
      await Promise.all([slow, fast]);
      expect(order).toEqual(['fast', 'slow']);
    });

    it('aborts the handler on notifications/cancelled and sends no response', async () => {
      const connection = await open();
      const pending = rpc(connection, 'c1', 'tools/call', { name: 'slow', arguments: { ms: 10_000 } });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(connection.pending).toBe(1);
      await connection.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c1', reason: 'user' } });
      expect(await pending).toBeUndefined();
      expect(seen.signal?.aborted).toBe(true);
      expect(connection.pending).toBe(0);
      // Unknown or finished ids are ignored.
      expect(await connection.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'nope' } })).toBeUndefined();
    });

    it('aborts everything on close', async () => {
      const connection = await open();
      const pending = rpc(connection, 1, 'tools/call', { name: 'slow', arguments: { ms: 10_000 } });
      await new Promise((resolve) => setTimeout(resolve, 10));
      connection.close();
      // Cut short by the server, not cancelled by the client: the request still ends with an answer.
      expect(await pending).toMatchObject({ id: 1, error: { code: -32603 } });
      expect(seen.signal?.aborted).toBe(true);
    });
  });

  describe('results per revision', () => {
    it('publishes every field on 2025-11-25', async () => {
      const connection = await open('2025-11-25');
      const response = await rpc(connection, 1, 'tools/list');
      expect(response.result.tools[0]).toEqual({
        name: 'echo',
        title: 'Echo',
        icons: [{ src: 'data:image/png;base64,AA==' }],
        annotations: { readOnlyHint: true },
        _meta: { 'example.com/x': 1 },
        inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      });
    });

    it('leaves out fields a 2024-11-05 client does not know', async () => {
      const connection = await open('2024-11-05');
      const tools = (await rpc(connection, 1, 'tools/list')).result.tools;
      expect(tools[0]).toEqual({ name: 'echo', inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
      const resources = (await rpc(connection, 2, 'resources/list')).result.resources;
      expect(resources).toEqual([{ uri: 'test://r', name: 'r' }]);
    });
  });

  describe('request log line', () => {
    function capture(): { logger: pino.Logger; lines: Array<Record<string, unknown>> } {
      const lines: Array<Record<string, unknown>> = [];
      const stream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
          done();
        },
      });
      return { logger: pino({ level: 'info' }, stream), lines };
    }

    it('logs method, target, duration and outcome at info, without arguments by default', async () => {
      const { logger, lines } = capture();
      const connection = makeApp(logger).connect({ kind: 'memory' });
      await rpc(connection, 0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} });
      await rpc(connection, 1, 'tools/call', { name: 'echo', arguments: { name: 'secret' } });
      await rpc(connection, 2, 'tools/call', { name: 'echo', arguments: {} });
      await rpc(connection, 3, 'resources/read', { uri: 'test://missing' });
      const requests = lines.filter((line) => line.msg === 'request' && line.method !== 'initialize');
      expect(requests).toEqual([
        expect.objectContaining({ rpcId: 1, method: 'tools/call', target: 'echo', outcome: 'ok', ms: expect.any(Number), transport: 'memory' }),
        expect.objectContaining({ rpcId: 2, target: 'echo', outcome: 'tool_error' }),
        expect.objectContaining({ rpcId: 3, method: 'resources/read', target: 'test://missing', outcome: 'error -32002' }),
      ]);
      expect(JSON.stringify(lines)).not.toContain('secret');
    });

    it("logs a client's long string id to 200 characters, and answers with the whole id", async () => {
      const { logger, lines } = capture();
      const connection = makeApp(logger).connect({ kind: 'memory' });
      await rpc(connection, 0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} });
      const id = 'i'.repeat(100_000);
      const answer = (await connection.receive({ jsonrpc: '2.0', id, method: 'ping' })) as { id: string };
      expect(answer.id).toBe(id);
      const [line] = lines.filter((entry) => entry.msg === 'request' && entry.method === 'ping');
      expect(line.rpcId).toBe(`${'i'.repeat(200)}…(99800 more characters)`);
    });

    it('follows a level change while the server runs, on the connection a first request made', async () => {
      const { logger, lines } = capture();
      const connection = makeApp(logger).connect({ kind: 'memory' });
      await rpc(connection, 0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} });
      await rpc(connection, 1, 'tools/call', { name: 'echo', arguments: { name: 'a' } });
      logger.level = 'warn';
      await rpc(connection, 2, 'tools/call', { name: 'echo', arguments: { name: 'b' } });
      logger.level = 'info';
      await rpc(connection, 3, 'tools/call', { name: 'echo', arguments: { name: 'c' } });
      expect(lines.filter((line) => line.msg === 'request' && line.method !== 'initialize').map((line) => line.rpcId)).toEqual([1, 3]);
    });

    it("carries the caller's W3C trace id, from _meta or the HTTP headers, and hands the context to the handler", async () => {
      class Traced {
        @Tool({ input: null })
        whoCalls(_input: unknown, ctx: HandlerContext) {
          return JSON.stringify(ctx.trace ?? null);
        }
      }
      const { logger, lines } = capture();
      const app = createApp({ name: 'x', version: '1', providers: [Traced], logger });
      const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
      const viaMeta = app.connect({ kind: 'memory' });
      await rpc(viaMeta, 0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} });
      const answer = await rpc(viaMeta, 1, 'tools/call', { name: 'whoCalls', arguments: {}, _meta: { traceparent, tracestate: 'v=1' } });
      expect(JSON.parse(answer.result.content[0].text)).toMatchObject({
        traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
        parentId: '00f067aa0ba902b7',
        sampled: true,
        tracestate: 'v=1',
      });
      const viaHeader = app.connect({ kind: 'http', headers: { traceparent: traceparent.replace('4bf9', 'aaaa') } });
      await rpc(viaHeader, 0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} });
      await rpc(viaHeader, 1, 'tools/call', { name: 'whoCalls', arguments: {} });
      const bad = app.connect({ kind: 'memory' });
      await rpc(bad, 0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} });
      const untraced = await rpc(bad, 1, 'tools/call', { name: 'whoCalls', arguments: {}, _meta: { traceparent: 'not-a-trace' } });
      expect(untraced.result.content[0].text).toBe('null');
      const requests = lines.filter((line) => line.msg === 'request' && line.method !== 'initialize');
      expect(requests.map((line) => line.traceId)).toEqual(['4bf92f3577b34da6a3ce929d0e0e4736', 'aaaa2f3577b34da6a3ce929d0e0e4736', undefined]);
    });

    it('logs arguments only when the app opts in', async () => {
      const { logger, lines } = capture();
      const app = createApp({ name: 'x', version: '1', providers: [Everything], logger, logArguments: true });
      const connection = app.connect({ kind: 'memory' });
      await rpc(connection, 0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} });
      await rpc(connection, 1, 'tools/call', { name: 'echo', arguments: { name: 'visible' } });
      expect(lines.find((line) => line.msg === 'request' && line.method !== 'initialize')).toMatchObject({ arguments: { name: 'visible' } });
    });
  });
});
