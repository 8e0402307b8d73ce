import type { JsonRpcMessage } from '@mcpkit/core';
import { ClientErrorCode, McpClientError } from '../client-error';
import { RpcPeer } from '../rpc-peer';
import type { ServerRequestHandlers } from '../server-requests';
import type { ClientTransport } from '../transports/client-transport';
import type { EraContext } from './client-era';
import { openEra } from './open-era';

type Message = { id?: number; method?: string; params?: Record<string, unknown> };
type Reply = (message: Message) => Record<string, unknown> | McpClientError | undefined;

/** A transport whose server is a function of each message: a result, an error answer, or a refusal of the send itself. */
class ScriptedTransport implements ClientTransport {
  readonly kind = 'http';
  readonly sent: Message[] = [];
  readonly versions: Array<string | undefined> = [];
  peer!: RpcPeer;
  constructor(private readonly reply: Reply) {}
  start = () => Promise.resolve();
  send(message: JsonRpcMessage): Promise<void> {
    const body = message as Message;
    this.sent.push(body);
    if (body.id === undefined || body.method === undefined) return Promise.resolve();
    const answer = this.reply(body);
    if (answer instanceof McpClientError) return Promise.reject(answer);
    if (answer) setImmediate(() => this.peer.receive({ jsonrpc: '2.0', id: body.id, ...answer }));
    return Promise.resolve();
  }
  setProtocolVersion(version: string | undefined): void {
    this.versions.push(version);
  }
  setMessageHeaders(): void {}
  close = () => Promise.resolve();
}

const INITIALIZED = { result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'old', version: '1' } } };
const DISCOVERED = {
  result: {
    resultType: 'complete',
    supportedVersions: ['2026-07-28'],
    capabilities: { tools: {} },
    _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'new', version: '2' } },
  },
};

function contextFor(reply: Reply, handlers: ServerRequestHandlers = {}): { context: EraContext; transport: ScriptedTransport } {
  const transport = new ScriptedTransport(reply);
  const peer = new RpcPeer(transport, handlers, {
    timeoutMs: 1_000,
    maxTotalTimeoutMs: 10_000,
    resetTimeoutOnProgress: false,
    maxPendingRequests: 10,
    maxServerRequests: 10,
  });
  transport.peer = peer;
  const context: EraContext = {
    peer,
    transport,
    capabilities: { roots: {} },
    clientInfo: { name: 'spec', version: '1' },
    handlers,
    maxInputRounds: 2,
    maxServerRequests: 2,
    protocolVersion: undefined,
    openTimeoutMs: 500,
    relistenDelayMs: 10,
    report: () => undefined,
  };
  return { context, transport };
}

describe('openEra', () => {
  it('auto: a DiscoverResult opens the modern era, and every request carries the _meta of the client', async () => {
    const { context, transport } = contextFor((message) =>
      message.method === 'server/discover' ? DISCOVERED : { result: { resultType: 'complete', tools: [] } },
    );
    const { era, server } = await openEra('auto', context);
    expect(era.name).toBe('modern');
    expect(server).toEqual({ protocolVersion: '2026-07-28', capabilities: { tools: {} }, serverInfo: { name: 'new', version: '2' } });
    expect(await era.request('tools/list', {})).toEqual({ resultType: 'complete', tools: [] });
    expect(transport.sent[1].params?._meta).toEqual({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { roots: {} },
      'io.modelcontextprotocol/clientInfo': { name: 'spec', version: '1' },
    });
  });

  it.each<[string, Reply]>([
    ['-32601', () => ({ error: { code: -32601, message: 'Method not found' } })],
    ['an HTTP status without a modern error', () => new McpClientError(ClientErrorCode.HttpStatus, 'refused', { status: 400 })],
    ['-32602 from a server that knows no _meta', () => ({ error: { code: -32602, message: 'Invalid params' } })],
  ])('auto: discover answered with %s falls back to initialize, unlabelled', async (_what, refuse) => {
    const { context, transport } = contextFor((message) => (message.method === 'server/discover' ? refuse(message) : INITIALIZED));
    const { era, server } = await openEra('auto', context);
    expect(era.name).toBe('legacy');
    expect(server.serverInfo).toEqual({ name: 'old', version: '1' });
    expect(transport.sent.map((message) => message.method)).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
    expect(transport.versions).toEqual(['2026-07-28', undefined, '2025-11-25']);
  });

  it('auto: -32022 naming a modern revision this client speaks asks again with it', async () => {
    let asked = 0;
    const { context } = contextFor((message) => {
      if (message.method !== 'server/discover') return undefined;
      asked += 1;
      return asked === 1
        ? { error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: '2026-07-28' } } }
        : DISCOVERED;
    });
    expect((await openEra('auto', context)).era.name).toBe('modern');
    expect(asked).toBe(2);
  });

  it('auto: a closed connection is no fallback', async () => {
    const { context } = contextFor(() => new McpClientError(ClientErrorCode.ConnectionClosed, 'gone'));
    await expect(openEra('auto', context)).rejects.toMatchObject({ message: 'gone' });
  });

  it('legacy: an initialize answered with a revision the client does not speak fails', async () => {
    const { context } = contextFor(() => ({ result: { ...INITIALIZED.result, protocolVersion: '1999-01-01' } }));
    await expect(openEra('legacy', context)).rejects.toMatchObject({ code: ClientErrorCode.UnsupportedProtocolVersion, data: { answered: '1999-01-01' } });
  });

  it.each([
    ['legacy', { result: { protocolVersion: '2025-11-25', capabilities: 'all', serverInfo: 7, instructions: { x: 1 } } }],
    ['modern', { result: { resultType: 'complete', capabilities: [], _meta: { 'io.modelcontextprotocol/serverInfo': 'new' }, instructions: 3 } }],
  ] as const)('%s: what the server says of itself is read by shape, garbage replaced by empty values', async (era, answer) => {
    const { context } = contextFor(() => answer);
    const { server } = await openEra(era, context);
    expect(server).toEqual({
      protocolVersion: era === 'legacy' ? '2025-11-25' : '2026-07-28',
      capabilities: {},
      serverInfo: { name: 'unknown', version: 'unknown' },
    });
  });

  it('modern: input-required results are answered by the handlers and sent again, up to maxInputRounds', async () => {
    let round = 0;
    const { context, transport } = contextFor(
      (message) => {
        if (message.method === 'server/discover') return DISCOVERED;
        round += 1;
        if (message.params?.name === 'forever' || round === 1) {
          return { result: { resultType: 'input_required', inputRequests: { where: { method: 'roots/list', params: {} } }, requestState: `s${round}` } };
        }
        return { result: { resultType: 'complete', content: [{ type: 'text', text: JSON.stringify(message.params?.inputResponses) }] } };
      },
      { 'roots/list': () => ({ roots: [{ uri: 'file:///a' }] }) },
    );
    const { era } = await openEra('modern', context);
    expect(await era.request('tools/call', { name: 'once' })).toEqual({
      resultType: 'complete',
      content: [{ type: 'text', text: '{"where":{"roots":[{"uri":"file:///a"}]}}' }],
    });
    expect(transport.sent[2].params).toMatchObject({ name: 'once', requestState: 's1', inputResponses: { where: { roots: [{ uri: 'file:///a' }] } } });
    expect(transport.sent[2].id).not.toBe(transport.sent[1].id);
    await expect(era.request('tools/call', { name: 'forever' })).rejects.toMatchObject({ code: ClientErrorCode.TooManyInputRounds });
  });

  it('modern: an input-required result asking more questions than maxServerRequests fails, no handler called', async () => {
    let asked = 0;
    const inputRequests = Object.fromEntries(['a', 'b', 'c'].map((key) => [key, { method: 'roots/list', params: {} }]));
    const { context } = contextFor(
      (message) => (message.method === 'server/discover' ? DISCOVERED : { result: { resultType: 'input_required', inputRequests } }),
      { 'roots/list': () => (asked++, { roots: [] }) },
    );
    const { era } = await openEra('modern', context);
    await expect(era.request('tools/call', { name: 'greedy' })).rejects.toMatchObject({
      code: ClientErrorCode.InvalidResponse,
      message: 'Invalid answer to tools/call: it asks 3 questions at once, over the 2 of maxServerRequests',
    });
    expect(asked).toBe(0);
  });

  it('modern: close() leaves no timer behind, not even the one that would open an ended listen again', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const { context, transport } = contextFor((message) => {
        if (message.method === 'server/discover') return DISCOVERED;
        // The listen is acknowledged, then ended by the server at once: the era means to listen again later.
        transport.peer.receive({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: {} });
        return { result: { resultType: 'complete' } };
      });
      const { era } = await openEra('modern', { ...context, relistenDelayMs: 60_000 });
      await era.subscribe('file:///watched');
      await new Promise((resolve) => setImmediate(resolve));
      expect(jest.getTimerCount()).toBe(1);
      era.close();
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it("modern: a question no handler answers fails the call with the client's -32601", async () => {
    const { context } = contextFor((message) =>
      message.method === 'server/discover'
        ? DISCOVERED
        : { result: { resultType: 'input_required', inputRequests: { q: { method: 'sampling/createMessage', params: {} } } } },
    );
    const { era } = await openEra('modern', context);
    await expect(era.request('tools/call', { name: 'x' })).rejects.toMatchObject({
      code: -32601,
      message: 'The client does not answer sampling/createMessage',
    });
  });
});
