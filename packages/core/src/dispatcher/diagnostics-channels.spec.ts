import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';
import { IsString } from 'class-validator';
import pino from 'pino';
import { createApp } from '../server/create-app';
import { Tool } from '../decorators/tool.decorator';
import { ToolError } from '../errors/tool-error';
import { markFastLines } from '../logging/fast-destination';
import { LogDestination } from '../logging/log-destination';
import type { HandlerContext } from './handler-context';
import type { Connection } from './connection';
import {
  CLIENT_REQUEST_CHANNEL,
  REQUEST_CHANNEL,
  SESSION_CHANNEL,
  type ClientRequestTrace,
  type RequestTrace,
  type SessionTrace,
} from './diagnostics-channels';

class EchoArgs {
  @IsString()
  text: string;
}

const store = new AsyncLocalStorage<string>();
let seenInside: Array<string | undefined> = [];

class Traced {
  @Tool()
  echo(args: EchoArgs) {
    seenInside.push(store.getStore());
    return args.text;
  }

  @Tool({ input: null })
  broken() {
    throw new ToolError('the disk is offline');
  }

  @Tool({ input: null })
  async slow(_: unknown, ctx: HandlerContext) {
    await new Promise<void>((resolve) => {
      ctx.signal.addEventListener('abort', () => resolve());
    });
    return 'late';
  }

  @Tool({ input: null })
  async ask(_: unknown, ctx: HandlerContext) {
    const roots = await ctx.roots();
    return `${roots.length} roots`;
  }
}

const MODERN = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

type Event = [string, RequestTrace];

function listen(): { events: Event[]; stop: () => void } {
  const events: Event[] = [];
  const channel = tracingChannel<unknown, RequestTrace>(REQUEST_CHANNEL);
  const handlers = {
    start: (m: RequestTrace) => events.push(['start', m]),
    end: (m: RequestTrace) => events.push(['end', m]),
    asyncStart: (m: RequestTrace) => events.push(['asyncStart', m]),
    asyncEnd: (m: RequestTrace) => events.push(['asyncEnd', { ...m }]),
    error: (m: RequestTrace) => events.push(['error', { ...m }]),
  };
  channel.subscribe(handlers);
  return { events, stop: () => channel.unsubscribe(handlers) };
}

async function connect(era: 'legacy' | 'modern', sent: unknown[] = []): Promise<Connection> {
  const app = createApp({ name: 'traced', version: '1', providers: [Traced], logger: pino({ level: 'silent' }) });
  const connection = app.connect({ kind: 'memory' }, { sessionId: era === 'legacy' ? 'sess-1' : undefined });
  connection.setOutbound((message) => sent.push(message));
  if (era === 'legacy') {
    await connection.receive({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: { roots: {} } },
    });
  }
  return connection;
}

const names = (events: Event[]) => events.map(([name]) => name);

describe('the mcpkit:request tracing channel', () => {
  let listening: ReturnType<typeof listen>;
  beforeEach(() => {
    listening = listen();
    seenInside = [];
  });
  afterEach(() => listening.stop());

  describe.each([
    ['legacy era', 'legacy' as const, {}],
    ['2026-07-28', 'modern' as const, { _meta: MODERN }],
  ])('%s', (_, era, extra: { _meta?: Record<string, unknown> }) => {
    it('publishes start, end, asyncStart, asyncEnd for a result, with what a tracer needs', async () => {
      const connection = await connect(era);
      listening.events.length = 0;
      const meta = { ...(extra._meta ?? {}), traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };
      await connection.receive({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' }, _meta: meta } });
      expect(names(listening.events)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
      const ended = listening.events[3][1];
      expect(ended).toMatchObject({
        method: 'tools/call',
        target: 'echo',
        id: 7,
        era,
        protocolVersion: era === 'legacy' ? '2025-11-25' : '2026-07-28',
        sessionId: era === 'legacy' ? 'sess-1' : undefined,
        transport: { kind: 'memory' },
        isError: false,
        error: undefined,
        cancelled: false,
      });
      expect(ended.meta?.traceparent).toBe(meta.traceparent);
      expect(ended.result).toMatchObject({ content: [{ type: 'text', text: 'hi' }] });
    });

    it('flags a tool failure (isError) without an error event', async () => {
      const connection = await connect(era);
      listening.events.length = 0;
      await connection.receive({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'broken', arguments: {}, ...extra } });
      expect(names(listening.events)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
      expect(listening.events[3][1]).toMatchObject({ isError: true, error: undefined });
    });

    it('publishes error with the JSON-RPC code and message (unknown tool, unknown method)', async () => {
      const connection = await connect(era);
      listening.events.length = 0;
      await connection.receive({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'no_such_tool', arguments: {}, ...extra } });
      expect(names(listening.events)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
      expect(listening.events[2][1].error).toMatchObject({ code: -32602 });
      listening.events.length = 0;
      await connection.receive({ jsonrpc: '2.0', id: 10, method: 'nope/nope', params: { ...extra } });
      expect(names(listening.events)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
      expect(listening.events[2][1]).toMatchObject({ method: 'nope/nope', error: { code: -32601 } });
    });

    it('ends a cancelled request once, marked cancelled', async () => {
      const connection = await connect(era);
      listening.events.length = 0;
      const answer = connection.receive({ jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'slow', arguments: {}, ...extra } });
      await new Promise((resolve) => setImmediate(resolve));
      await connection.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 11, ...extra } });
      await answer;
      expect(names(listening.events)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
      expect(listening.events[3][1]).toMatchObject({ cancelled: true, result: undefined, error: undefined });
    });

    it('runs the handler inside the stores bound to start, and inside runWithin', async () => {
      const connection = await connect(era);
      const channel = tracingChannel<unknown, RequestTrace>(REQUEST_CHANNEL);
      channel.start.bindStore(store, (trace) => `bound ${trace.target}`);
      try {
        await connection.receive({ jsonrpc: '2.0', id: 12, method: 'tools/call', params: { name: 'echo', arguments: { text: 'a' }, ...extra } });
      } finally {
        channel.start.unbindStore(store);
      }
      const within = (message: unknown) => {
        (message as RequestTrace).runWithin = (fn) => store.run('within', fn);
      };
      channel.start.subscribe(within);
      try {
        await connection.receive({ jsonrpc: '2.0', id: 13, method: 'tools/call', params: { name: 'echo', arguments: { text: 'b' }, ...extra } });
      } finally {
        channel.start.unsubscribe(within);
      }
      expect(seenInside).toEqual(['bound echo', 'within']);
    });

    it('lets a start subscriber add fields to the request log line', async () => {
      const lines: Array<Record<string, unknown>> = [];
      const app = createApp({
        name: 'traced',
        version: '1',
        providers: [Traced],
        logger: pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) }),
      });
      const connection = app.connect({ kind: 'memory' });
      const add = (message: unknown) => {
        (message as RequestTrace).logBindings.trace_id = 'abc';
      };
      const channel = tracingChannel<unknown, RequestTrace>(REQUEST_CHANNEL);
      channel.start.subscribe(add);
      try {
        if (era === 'legacy') {
          await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
        }
        await connection.receive({ jsonrpc: '2.0', id: 14, method: 'tools/list', params: { ...extra } });
      } finally {
        channel.start.unsubscribe(add);
      }
      expect(lines.find((line) => line.msg === 'request' && line.method === 'tools/list')).toMatchObject({ method: 'tools/list', trace_id: 'abc' });
      // A request answered without a handler too.
      if (era === 'legacy') expect(lines.find((line) => line.msg === 'request' && line.method === 'initialize')).toMatchObject({ trace_id: 'abc' });
    });
  });

  it('keeps the request line on its fast path with the fields a subscriber adds', async () => {
    class Captured extends LogDestination {
      readonly written: string[] = [];
      override write(line: string): boolean {
        this.written.push(line);
        return true;
      }
    }
    const fast = new Captured();
    const viaPino: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => viaPino.push(line) });
    markFastLines(logger, fast);
    const connection = createApp({ name: 'traced', version: '1', providers: [Traced], logger }).connect({ kind: 'memory' });
    const add = (message: unknown) => {
      Object.assign((message as RequestTrace).logBindings, { trace_id: '0af7651916cd43dd8448eb211c80319c', span_id: 'b7ad6b7169203331' });
    };
    const channel = tracingChannel<unknown, RequestTrace>(REQUEST_CHANNEL);
    channel.start.subscribe(add);
    try {
      await connection.receive({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: MODERN } });
    } finally {
      channel.start.unsubscribe(add);
    }
    expect(viaPino).toEqual([]);
    expect(JSON.parse(fast.written[0])).toMatchObject({ msg: 'request', trace_id: '0af7651916cd43dd8448eb211c80319c', span_id: 'b7ad6b7169203331' });
  });

  it.each([['legacy' as const], ['modern' as const]])(
    "says whether the server knows what a request names (%s): its methods and registered tools yes, the client's inventions no",
    async (era) => {
      const connection = await connect(era);
      const meta = era === 'modern' ? { _meta: MODERN } : {};
      const knownOf = async (method: string, params: Record<string, unknown>) => {
        listening.events.length = 0;
        await connection.receive({ jsonrpc: '2.0', id: 9, method, params: { ...params, ...meta } });
        const ended = listening.events.find(([name]) => name === 'asyncEnd');
        return ended?.[1].known;
      };
      expect(await knownOf('tools/call', { name: 'echo', arguments: { text: 'hi' } })).toBe(true);
      expect(await knownOf('tools/call', { name: 'echo', arguments: { text: 1 } })).toBe(true);
      expect(await knownOf('tools/list', {})).toBe(true);
      expect(await knownOf('tools/call', { name: 'nope', arguments: {} })).toBe(false);
      expect(await knownOf('bogus/method', {})).toBe(false);
    },
  );

  it('knows nothing a request names that was answered before its handler: a tools/call before initialize', async () => {
    const app = createApp({ name: 'traced', version: '1', providers: [Traced], logger: pino({ level: 'silent' }) });
    const connection = app.connect({ kind: 'memory' }, { sessionId: 's' });
    connection.setOutbound(() => {});
    listening.events.length = 0;
    await connection.receive({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } });
    await connection.receive({ jsonrpc: '2.0', id: 2, method: 'ping', params: {} });
    await connection.receive({ jsonrpc: '2.0', id: 3, method: 'made/up', params: {} });
    const ended = listening.events.filter(([name]) => name === 'asyncEnd').map(([, trace]) => [trace.method, trace.known]);
    expect(ended).toEqual([
      ['tools/call', false],
      ['ping', true],
      ['made/up', false],
    ]);
  });

  it('publishes initialize, with the negotiated revision', async () => {
    await connect('legacy');
    expect(names(listening.events)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    expect(listening.events[3][1]).toMatchObject({ method: 'initialize', protocolVersion: '2025-11-25', sessionId: 'sess-1' });
  });

  it('publishes a 2026-07-28 subscriptions/listen from its start to its end', async () => {
    const connection = await connect('modern');
    const listen = connection.receive({ jsonrpc: '2.0', id: 'L', method: 'subscriptions/listen', params: { notifications: {}, _meta: MODERN } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(names(listening.events)).toEqual(['start', 'end']);
    connection.endListens();
    await listen;
    expect(names(listening.events)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    expect(listening.events[3][1]).toMatchObject({ method: 'subscriptions/listen', id: 'L', protocolVersion: '2026-07-28', cancelled: true });
  });

  it('builds nothing when nobody subscribes', async () => {
    listening.stop();
    expect(tracingChannel(REQUEST_CHANNEL).hasSubscribers).toBe(false);
    const connection = await connect('modern');
    await connection.receive({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' }, _meta: MODERN } });
    expect(listening.events).toEqual([]);
  });
});

describe('the mcpkit:client-request tracing channel', () => {
  it('wraps a request to the client, and sends what start put in meta in its _meta', async () => {
    const events: Array<[string, ClientRequestTrace]> = [];
    const channel = tracingChannel<unknown, ClientRequestTrace>(CLIENT_REQUEST_CHANNEL);
    const handlers = {
      start: (m: ClientRequestTrace) => {
        events.push(['start', m]);
        m.meta.traceparent = '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01';
      },
      end: () => {},
      asyncStart: () => {},
      asyncEnd: (m: ClientRequestTrace) => events.push(['asyncEnd', m]),
      error: (m: ClientRequestTrace) => events.push(['error', m]),
    };
    channel.subscribe(handlers);
    const sent: Array<Record<string, unknown>> = [];
    try {
      const connection = await connect('legacy', sent);
      const answer = connection.receive({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask', arguments: {} } });
      await new Promise((resolve) => setImmediate(resolve));
      const asked = sent.find((message) => message.method === 'roots/list') as { id: string; params: { _meta: Record<string, unknown> } };
      expect(asked.params._meta).toMatchObject({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01', progressToken: asked.id });
      await connection.receive({ jsonrpc: '2.0', id: asked.id, result: { roots: [] } });
      await answer;
    } finally {
      channel.unsubscribe(handlers);
    }
    expect(events.map(([name]) => name)).toEqual(['start', 'asyncEnd']);
    expect(events[1][1]).toMatchObject({ method: 'roots/list', sessionId: 'sess-1', result: { roots: [] } });
  });
});

describe('the mcpkit:session channel', () => {
  it('publishes a closed session with its duration', async () => {
    const seen: SessionTrace[] = [];
    const onSession = (message: unknown) => seen.push(message as SessionTrace);
    subscribe(SESSION_CHANNEL, onSession);
    try {
      const connection = await connect('legacy');
      connection.close();
    } finally {
      unsubscribe(SESSION_CHANNEL, onSession);
    }
    expect(seen).toEqual([{ sessionId: 'sess-1', protocolVersion: '2025-11-25', transport: { kind: 'memory' }, durationSeconds: expect.any(Number) }]);
  });
});
