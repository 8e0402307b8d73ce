import type { CallOptions, McpClient } from '@mcpkit/client';
import type { RequestContext } from '@mcpkit/core';
import { remoteCaller } from './definitions';
import { QuestionRelay } from './relay';

/** A client whose calls wait until answered by hand, and which records what it is asked to cancel. */
function fakeClient(era: 'legacy' | 'modern') {
  const calls: Array<{ options: CallOptions; answer: (value: unknown) => void; fail: (error: unknown) => void }> = [];
  const cancelled: Array<{ tag: unknown; reason: unknown }> = [];
  const client = {
    era,
    callTool: (_name: string, _args: unknown, options: CallOptions) =>
      new Promise((answer, fail) => {
        calls.push({ options, answer, fail });
      }),
    cancelTagged: (tag: unknown, reason: unknown) => {
      cancelled.push({ tag, reason });
      const call = calls.find((entry) => entry.options.tag === tag);
      call?.fail(Object.assign(new Error(`tools/call was cancelled: ${String((reason as Error).message ?? reason)}`), { code: -31102 }));
      return call ? 1 : 0;
    },
  } as unknown as McpClient;
  return { client, calls, cancelled };
}

/** Waits until the remote call is made (the proxy first waits for the remote to have read a refusal). */
async function made(calls: unknown[], count = 1): Promise<void> {
  while (calls.length < count) await new Promise((resolve) => setImmediate(resolve));
}

/** A context whose signal is counted when read, and whose cancellation the test triggers. */
function fakeContext() {
  const listeners: Array<(reason: Error) => void> = [];
  const controller = new AbortController();
  const seen = { signalReads: 0 };
  const ctx = {
    progressToken: undefined,
    get signal() {
      seen.signalReads++;
      return controller.signal;
    },
    onCancel: (listener: (reason: Error) => void) => {
      listeners.push(listener);
      return () => listeners.splice(listeners.indexOf(listener), 1);
    },
  } as unknown as RequestContext;
  const cancel = (reason: Error) => {
    controller.abort(reason);
    for (const listener of [...listeners]) listener(reason);
  };
  return { ctx, cancel, seen, listeners };
}

/** A remote caller over `client`, with no refusal hook nor notification relay of its own. */
function callerOf(client: McpClient, relay = new QuestionRelay()) {
  return remoteCaller(
    () => client,
    relay,
    () => undefined,
    () => undefined,
  );
}

describe('remoteCaller', () => {
  it('relays the caller’s cancellation to a legacy remote by tag, making no signal on the way', async () => {
    const { client, calls, cancelled } = fakeClient('legacy');
    const { ctx, cancel, seen, listeners } = fakeContext();
    const remote = callerOf(client);
    const result = remote(ctx, 'tools/call', 'tool slow', (upstream, options) => upstream.callTool('slow', {}, options));
    await made(calls);
    expect(calls[0]!.options.signal).toBeUndefined();
    expect(listeners).toHaveLength(1);
    cancel(new Error('the user gave up'));
    await expect(result).rejects.toMatchObject({ code: -31102 });
    expect(cancelled).toEqual([{ tag: calls[0]!.options.tag, reason: new Error('the user gave up') }]);
    expect(listeners).toHaveLength(0);
    // Read once, on the failure path only: a call that is answered reads none (below).
    expect(seen.signalReads).toBe(1);
  });

  it('answers a legacy call without reading the caller’s signal, and stops listening to its cancellation', async () => {
    const { client, calls, cancelled } = fakeClient('legacy');
    const { ctx, seen, listeners } = fakeContext();
    const remote = callerOf(client);
    const result = remote(ctx, 'tools/call', 'tool echo', (upstream, options) => upstream.callTool('echo', {}, options));
    await made(calls);
    calls[0]!.answer({ content: [] });
    await expect(result).resolves.toEqual({ content: [] });
    expect(seen.signalReads).toBe(0);
    expect(listeners).toHaveLength(0);
    expect(cancelled).toEqual([]);
  });

  it('makes the remote call at once when no refusal waits, and after the ping when one does', async () => {
    const { client, calls } = fakeClient('legacy');
    const relay = new QuestionRelay();
    const remote = callerOf(client, relay);
    void remote(fakeContext().ctx, 'tools/call', 'tool echo', (upstream, options) => upstream.callTool('echo', {}, options));
    expect(calls).toHaveLength(1);
    let pinged: (value: unknown) => void = () => undefined;
    Object.assign(client, { request: () => new Promise((resolve) => (pinged = resolve)) });
    Object.assign(relay, { refused: true });
    expect(relay.behind).toBe(true);
    void remote(fakeContext().ctx, 'tools/call', 'tool echo', (upstream, options) => upstream.callTool('echo', {}, options));
    await Promise.resolve();
    expect(calls).toHaveLength(1);
    pinged({});
    await made(calls, 2);
    expect(relay.behind).toBe(false);
  });

  it('relays the caller’s cancellation to a 2026-07-28 remote by tag too, reading no signal on an answered call', async () => {
    const { client, calls, cancelled } = fakeClient('modern');
    const first = fakeContext();
    const remote = callerOf(client);
    const answered = remote(first.ctx, 'tools/call', 'tool echo', (upstream, options) => upstream.callTool('echo', {}, options));
    await made(calls);
    expect(calls[0]!.options.signal).toBeUndefined();
    calls[0]!.answer({ content: [] });
    await expect(answered).resolves.toEqual({ content: [] });
    expect(first.seen.signalReads).toBe(0);
    expect(first.listeners).toHaveLength(0);
    const second = fakeContext();
    const dropped = remote(second.ctx, 'tools/call', 'tool slow', (upstream, options) => upstream.callTool('slow', {}, options));
    await made(calls, 2);
    second.cancel(new Error('the user gave up'));
    await expect(dropped).rejects.toMatchObject({ code: -31102 });
    expect(cancelled).toEqual([{ tag: calls[1]!.options.tag, reason: new Error('the user gave up') }]);
  });

  it('fails a 2026-07-28 input-required round whose question was answered after the caller cancelled: no retry is sent', async () => {
    const { client, calls } = fakeClient('modern');
    const relay = new QuestionRelay();
    const { ctx, cancel } = fakeContext();
    let accept: (value: unknown) => void = () => undefined;
    Object.assign(ctx, { elicit: () => new Promise((resolve) => (accept = resolve)) });
    const remote = callerOf(client, relay);
    const result = remote(ctx, 'tools/call', 'tool asks', (upstream, options) => upstream.callTool('asks', {}, options));
    await made(calls);
    // The first round ended input-required: the era asks the question, with no request of the call pending.
    const question = relay.handlers['elicitation/create']!(
      { message: 'sure?' },
      { method: 'elicitation/create', signal: new AbortController().signal, call: { method: 'tools/call', tag: calls[0]!.options.tag } },
    );
    cancel(new Error('the user gave up'));
    accept({ action: 'accept', content: {} });
    await expect(question).rejects.toMatchObject({ code: -31102 });
    await expect(result).rejects.toMatchObject({ code: -31102 });
    expect(relay.behind).toBe(false);
  });

  it('cancels the remote call by its tag when a question ends the gateway’s call', async () => {
    const { client, calls, cancelled } = fakeClient('legacy');
    const relay = new QuestionRelay();
    const refusal = new Error('no roots capability');
    const { ctx } = fakeContext();
    Object.assign(ctx, { roots: () => Promise.reject(refusal) });
    const remote = callerOf(client, relay);
    const result = remote(ctx, 'tools/call', 'tool asks', (upstream, options) => upstream.callTool('asks', {}, options));
    await made(calls);
    const signal = new AbortController().signal;
    await expect(relay.handlers['roots/list']!({}, { method: 'roots/list', signal })).rejects.toMatchObject({ code: -32600 });
    await expect(result).rejects.toBe(refusal);
    expect(cancelled).toEqual([{ tag: calls[0]!.options.tag, reason: "tool asks: the gateway's call ended" }]);
  });
});
