import type { JsonRpcMessage } from '@mcpkit/core';
import { ClientErrorCode, McpClientError } from './client-error';
import { RpcPeer, type PeerLimits } from './rpc-peer';
import type { ServerRequestHandlers } from './server-requests';
import type { ClientTransport, SendOptions } from './transports/client-transport';

/** A transport that keeps what is sent, with the stream signal of each request (HTTP: a request owns its stream). */
class FakeTransport implements ClientTransport {
  constructor(readonly kind: 'stdio' | 'http' = 'http') {}
  readonly sent: Array<Record<string, unknown>> = [];
  readonly signals: AbortSignal[] = [];
  start = () => Promise.resolve();
  send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    this.sent.push(message as unknown as Record<string, unknown>);
    if (options?.signal) this.signals.push(options.signal);
    return Promise.resolve();
  }
  setProtocolVersion(): void {}
  close = () => Promise.resolve();
}

const LIMITS: PeerLimits = { timeoutMs: 1_000, maxTotalTimeoutMs: 10_000, resetTimeoutOnProgress: false, maxPendingRequests: 3, maxServerRequests: 2 };

function peerWith(handlers: ServerRequestHandlers = {}, limits: Partial<PeerLimits> = {}, kind: 'stdio' | 'http' = 'http') {
  const transport = new FakeTransport(kind);
  const unreadable: string[] = [];
  const peer = new RpcPeer(transport, handlers, { ...LIMITS, ...limits }, undefined, (error) => void unreadable.push(error.message));
  return { peer, transport, unreadable };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('RpcPeer', () => {
  afterEach(() => jest.useRealTimers());

  it('sends requests with fresh ids and settles each by its answer', async () => {
    const { peer, transport } = peerWith();
    const first = peer.request('tools/list', {});
    const second = peer.request('prompts/list', undefined);
    expect(transport.sent).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      { jsonrpc: '2.0', id: 2, method: 'prompts/list' },
    ]);
    peer.receive({ jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found', data: { x: 1 } } });
    peer.receive({ jsonrpc: '2.0', id: 1, result: { tools: [] } });
    await expect(first).resolves.toEqual({ tools: [] });
    await expect(second).rejects.toEqual(new McpClientError(-32601, 'Method not found', { x: 1 }));
    expect(peer.pendingCount).toBe(0);
  });

  it.each([
    [{ jsonrpc: '2.0', id: 1 }, 'Invalid answer to tools/list: no result object and no error'],
    [{ jsonrpc: '2.0', id: 1, result: 'text' }, 'Invalid answer to tools/list: no result object and no error'],
    [{ jsonrpc: '2.0', id: 1, error: { code: 'x' } }, 'Invalid answer to tools/list: its error has no integer code'],
  ])('fails the request of a malformed answer %j', async (answer, message) => {
    const { peer } = peerWith();
    const call = peer.request('tools/list', {});
    peer.receive(answer);
    await expect(call).rejects.toMatchObject({ code: ClientErrorCode.InvalidResponse, message });
  });

  it('reports what it cannot read without failing a request', async () => {
    const { peer, unreadable } = peerWith();
    const call = peer.request('tools/list', {});
    for (const junk of [42, null, { id: 1, result: {} }, { jsonrpc: '2.0', id: 77, result: {} }]) peer.receive(junk);
    expect(unreadable).toEqual([
      'Invalid answer to the connection: a message that is not JSON-RPC 2.0',
      'Invalid answer to the connection: a message that is not JSON-RPC 2.0',
      'Invalid answer to the connection: a message that is not JSON-RPC 2.0',
      'Invalid answer to the connection: an answer to no request waiting (id 77)',
    ]);
    expect(peer.pendingCount).toBe(1);
    peer.close(new McpClientError(ClientErrorCode.ConnectionClosed, 'done'));
    await expect(call).rejects.toMatchObject({ message: 'done' });
  });

  it('reads a batch one level deep: a nested one is reported, however deep, and never throws', async () => {
    const { peer, unreadable } = peerWith();
    const call = peer.request('tools/list', {});
    let nested: unknown = [];
    for (let depth = 0; depth < 100_000; depth++) nested = [nested];
    expect(() => peer.receive(nested)).not.toThrow();
    peer.receive([[{ jsonrpc: '2.0', id: 1, result: { tools: ['nested'] } }], { jsonrpc: '2.0', id: 1, result: { tools: [] } }]);
    await expect(call).resolves.toEqual({ tools: [] });
    expect(unreadable).toEqual(['Invalid answer to the connection: a batch inside a batch', 'Invalid answer to the connection: a batch inside a batch']);
  });

  it('keeps its ids apart from the server\'s: "1" is not 1, a request of the server with id 1 is not the answer to 1, a second answer is stray', async () => {
    const { peer, transport, unreadable } = peerWith({ 'roots/list': () => ({ roots: [] }) });
    const call = peer.request('tools/list', {});
    peer.receive({ jsonrpc: '2.0', id: '1', result: { tools: ['string id'] } });
    peer.receive({ jsonrpc: '2.0', id: 1, method: 'roots/list' });
    await flush();
    expect(peer.pendingCount).toBe(1);
    expect(transport.sent[1]).toEqual({ jsonrpc: '2.0', id: 1, result: { roots: [] } });
    peer.receive({ jsonrpc: '2.0', id: 1, result: { tools: [] }, error: { code: 1, message: 'both' } });
    peer.receive({ jsonrpc: '2.0', id: 1, result: { tools: ['again'] } });
    await expect(call).rejects.toMatchObject({ code: 1, message: 'both' });
    expect(unreadable).toEqual([
      'Invalid answer to the connection: an answer to no request waiting (id "1")',
      'Invalid answer to the connection: an answer to no request waiting (id 1)',
    ]);
  });

  it('asks for progress with the request id as token and routes each notification to its request', async () => {
    const { peer, transport } = peerWith();
    const seen: unknown[] = [];
    const call = peer.request('tools/call', { name: 'a', _meta: { trace: 't' } }, { onProgress: (progress) => seen.push(progress), _meta: { extra: 1 } });
    expect(transport.sent[0].params).toEqual({ name: 'a', _meta: { trace: 't', extra: 1, progressToken: 1 } });
    peer.receive({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 5, total: 10, message: 'half' } });
    peer.receive({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 99, progress: 1 } });
    peer.receive({ jsonrpc: '2.0', id: 1, result: {} });
    await call;
    expect(seen).toEqual([{ progress: 5, total: 10, message: 'half' }]);
  });

  it('times a request out, cancels it on the wire, and restarts the timeout on progress when asked', async () => {
    jest.useFakeTimers();
    const { peer, transport } = peerWith({}, { resetTimeoutOnProgress: true });
    const call = peer.request('tools/call', {}, { timeoutMs: 100, onProgress: () => undefined });
    const failed = expect(call).rejects.toMatchObject({ code: ClientErrorCode.RequestTimeout, data: { timeoutMs: 100 } });
    jest.advanceTimersByTime(90);
    peer.receive({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } });
    jest.advanceTimersByTime(90);
    expect(peer.pendingCount).toBe(1);
    jest.advanceTimersByTime(20);
    await failed;
    expect(transport.sent[1]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1, reason: 'tools/call got no answer within 100 ms' },
    });
    expect(transport.signals[0].aborted).toBe(true);
  });

  it('times every request out with one timer, each at its own timeoutMs, and keeps no timer once none waits', async () => {
    jest.useFakeTimers();
    const { peer } = peerWith();
    const slow = peer.request('tools/call', {}, { timeoutMs: 300 });
    const quick = peer.request('tools/call', {}, { timeoutMs: 100 });
    const answered = peer.request('tools/call', {});
    expect(jest.getTimerCount()).toBe(1);
    const quickFailed = expect(quick).rejects.toMatchObject({ code: ClientErrorCode.RequestTimeout, data: { timeoutMs: 100 } });
    jest.advanceTimersByTime(100);
    await quickFailed;
    expect(peer.pendingCount).toBe(2);
    peer.receive({ jsonrpc: '2.0', id: 3, result: {} });
    await answered;
    const slowFailed = expect(slow).rejects.toMatchObject({ code: ClientErrorCode.RequestTimeout, data: { timeoutMs: 300 } });
    jest.advanceTimersByTime(199);
    expect(peer.pendingCount).toBe(1);
    jest.advanceTimersByTime(1);
    await slowFailed;
    expect(jest.getTimerCount()).toBe(0);
    const last = peer.request('tools/call', {});
    peer.receive({ jsonrpc: '2.0', id: 4, result: {} });
    await last;
    expect(jest.getTimerCount()).toBe(0);
  });

  it('ends a call whose progress keeps resetting its timeout at maxTotalTimeoutMs', async () => {
    jest.useFakeTimers();
    const { peer, transport } = peerWith({}, { resetTimeoutOnProgress: true, maxTotalTimeoutMs: 250 });
    const call = peer.request('tools/call', {}, { timeoutMs: 100, onProgress: () => undefined });
    const failed = expect(call).rejects.toMatchObject({
      code: ClientErrorCode.RequestTimeout,
      message: 'tools/call still ran after 250 ms (maxTotalTimeoutMs), though its progress reset its timeout',
      data: { maxTotalTimeoutMs: 250 },
    });
    for (let step = 0; step < 3; step++) {
      jest.advanceTimersByTime(90);
      peer.receive({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: step } });
    }
    expect(peer.pendingCount).toBe(0);
    await failed;
    expect(transport.sent[1]).toMatchObject({ method: 'notifications/cancelled', params: { requestId: 1 } });
  });

  it('gives a stdio request no stream signal (nothing to close), and still cancels it by notification', async () => {
    const { peer, transport } = peerWith({}, {}, 'stdio');
    const answered = peer.request('tools/call', {});
    peer.receive({ jsonrpc: '2.0', id: 1, result: { content: [] } });
    await expect(answered).resolves.toEqual({ content: [] });
    const controller = new AbortController();
    const call = peer.request('tools/call', {}, { signal: controller.signal });
    controller.abort('stop');
    await expect(call).rejects.toMatchObject({ code: ClientErrorCode.RequestCancelled });
    expect(transport.sent[2]).toMatchObject({ method: 'notifications/cancelled', params: { requestId: 2 } });
    expect(transport.signals).toEqual([]);
  });

  it('cancels on abort as the era says: a notification, or only the closed stream', async () => {
    const { peer, transport } = peerWith();
    const controller = new AbortController();
    const call = peer.request('tools/call', {}, { signal: controller.signal });
    controller.abort('stop');
    await expect(call).rejects.toMatchObject({ code: ClientErrorCode.RequestCancelled, message: 'tools/call was cancelled: stop' });
    expect(transport.sent[1]).toMatchObject({ method: 'notifications/cancelled', params: { requestId: 1 } });
    peer.cancelParams = () => undefined;
    const other = new AbortController();
    const quiet = peer.request('tools/call', {}, { signal: other.signal });
    other.abort();
    await expect(quiet).rejects.toMatchObject({ code: ClientErrorCode.RequestCancelled });
    expect(transport.sent).toHaveLength(3);
    expect(transport.signals[1].aborted).toBe(true);
    await expect(peer.request('tools/call', {}, { signal: other.signal })).rejects.toMatchObject({ code: ClientErrorCode.RequestCancelled });
  });

  it('cancels the waiting requests of one tag, and only those, as an abort would', async () => {
    const { peer, transport } = peerWith({}, {}, 'stdio');
    const tagged = peer.request('tools/call', { name: 'slow' }, { tag: 7 });
    const other = peer.request('tools/call', { name: 'other' }, { tag: 8 });
    expect(peer.cancelTagged(7, new Error('the caller went away'))).toBe(1);
    await expect(tagged).rejects.toMatchObject({ code: ClientErrorCode.RequestCancelled, message: 'tools/call was cancelled: the caller went away' });
    expect(transport.sent.at(-1)).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1, reason: 'tools/call was cancelled: the caller went away' },
    });
    expect(peer.cancelTagged(7, 'again')).toBe(0);
    expect(peer.pendingCount).toBe(1);
    peer.receive({ jsonrpc: '2.0', id: 2, result: {} });
    await expect(other).resolves.toEqual({});
  });

  it('sends the params as given when nothing is added to their _meta', () => {
    const { peer, transport } = peerWith();
    const params = { name: 'echo', arguments: {}, _meta: { traceparent: 'x' } };
    void peer.request('tools/call', params).catch(() => undefined);
    void peer.request('tools/call', params, { _meta: { a: 1 }, onProgress: () => undefined }).catch(() => undefined);
    expect((transport.sent[0] as { params: unknown }).params).toBe(params);
    expect((transport.sent[1] as { params: unknown }).params).toEqual({ name: 'echo', arguments: {}, _meta: { traceparent: 'x', a: 1, progressToken: 2 } });
    expect(params._meta).toEqual({ traceparent: 'x' });
  });

  it('bounds the waiting requests and rejects them all on close', async () => {
    const { peer } = peerWith();
    const waiting = [1, 2, 3].map(() => peer.request('tools/list', {}));
    await expect(peer.request('tools/list', {})).rejects.toMatchObject({ code: ClientErrorCode.TooManyPendingRequests });
    const gone = new McpClientError(ClientErrorCode.ConnectionClosed, 'gone');
    peer.close(gone);
    for (const call of waiting) await expect(call).rejects.toBe(gone);
    await expect(peer.request('tools/list', {})).rejects.toBe(gone);
  });

  it('answers the server with the handlers, ping by itself, -32601 for anything else', async () => {
    const { peer, transport } = peerWith({
      'roots/list': () => ({ roots: [] }),
      'sampling/createMessage': () => {
        throw new McpClientError(-1, 'declined', { why: 'user' });
      },
      'elicitation/create': () => {
        throw new Error('broken');
      },
    });
    peer.receive({ jsonrpc: '2.0', id: 'a', method: 'roots/list' });
    peer.receive({ jsonrpc: '2.0', id: 'b', method: 'ping' });
    await flush();
    peer.receive({ jsonrpc: '2.0', id: 'c', method: 'sampling/createMessage', params: {} });
    peer.receive({ jsonrpc: '2.0', id: 'd', method: 'elicitation/create', params: {} });
    await flush();
    peer.receive({ jsonrpc: '2.0', id: 'e', method: 'toString' });
    await flush();
    // Each answer goes out when its handler is done, not in the order asked.
    expect(transport.sent).toHaveLength(5);
    expect(transport.sent).toEqual(
      expect.arrayContaining([
        { jsonrpc: '2.0', id: 'a', result: { roots: [] } },
        { jsonrpc: '2.0', id: 'b', result: {} },
        { jsonrpc: '2.0', id: 'c', error: { code: -1, message: 'declined', data: { why: 'user' } } },
        { jsonrpc: '2.0', id: 'd', error: { code: -32603, message: 'broken' } },
        { jsonrpc: '2.0', id: 'e', error: { code: -32601, message: 'The client does not answer toString' } },
      ]),
    );
  });

  it('bounds the server requests it answers at once, and sends nothing for one the server cancelled', async () => {
    const signals: AbortSignal[] = [];
    const { peer, transport } = peerWith({
      'roots/list': (_params, { signal }) => (signals.push(signal), new Promise((resolve) => signal.addEventListener('abort', () => resolve({ roots: [] })))),
    });
    for (const id of [1, 2, 3]) peer.receive({ jsonrpc: '2.0', id, method: 'roots/list' });
    await flush();
    expect(transport.sent).toEqual([{ jsonrpc: '2.0', id: 3, error: { code: -32600, message: 'the client already answers 2 requests of the server' } }]);
    peer.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    await flush();
    expect(signals[0].aborted).toBe(true);
    expect(transport.sent).toHaveLength(1);
  });

  it('bounds the refusals still being sent too: a flood past the bound is dropped and reported, not one POST each', async () => {
    const { peer, transport, unreadable } = peerWith({ 'roots/list': () => new Promise(() => undefined) });
    // Over HTTP each answer is a POST: one that never completes keeps its refusal in flight.
    transport.send = (message) => (transport.sent.push(message as unknown as Record<string, unknown>), new Promise(() => undefined));
    for (let id = 1; id <= 12; id++) peer.receive({ jsonrpc: '2.0', id, method: 'roots/list' });
    await flush();
    expect(transport.sent.map((message) => message.id)).toEqual([3, 4]);
    expect(unreadable).toEqual(
      Array(8).fill('Invalid answer to the connection: a request of the server past maxServerRequests, while refusals are still being sent'),
    );
  });

  it('tells listeners of their notifications, and reports a listener that throws', () => {
    const { peer, unreadable } = peerWith();
    const seen: string[] = [];
    const stop = peer.on('notifications/tools/list_changed', (_params, method) => void seen.push(method));
    peer.on('*', (_params, method) => {
      seen.push(`* ${method}`);
      throw new Error('listener bug');
    });
    peer.receive({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    stop();
    peer.receive({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect(seen).toEqual(['notifications/tools/list_changed', '* notifications/tools/list_changed', '* notifications/tools/list_changed']);
    expect(unreadable).toEqual(['a listener of notifications/tools/list_changed threw', 'a listener of notifications/tools/list_changed threw']);
  });
});
