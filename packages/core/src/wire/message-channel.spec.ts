import type { JsonRpcMessage } from '../protocol/json-rpc';
import { MessageChannel, type ChannelAnswer, type MessageChannelOptions } from './message-channel';

const LIMITS = { maxMessageBytes: 1 << 20, maxBatchBytes: 1 << 20 };

/** A channel over a fake peer: what it wrote (one entry per write), and how input was paused. */
function harness(overrides: Partial<MessageChannelOptions> = {}) {
  const writes: string[][] = [];
  const input = { paused: false, pauses: 0 };
  let full = false;
  let drain: (() => void) | undefined;
  const answers = new Map<string, (answer: ChannelAnswer) => void>();
  const channel = new MessageChannel({
    // Each message is its own request; the test answers it by its text.
    dispatch: (text) => new Promise<ChannelAnswer>((resolve) => answers.set(text, resolve)),
    write: (texts) => (writes.push([...texts]), !full),
    drained: (resume) => (drain = resume),
    pauseInput: () => ((input.paused = true), (input.pauses += 1)),
    resumeInput: () => (input.paused = false),
    limits: LIMITS,
    ...overrides,
  });
  return {
    channel,
    writes,
    input,
    answer: (text: string, answer: ChannelAnswer) => answers.get(text)!(answer),
    fill: (value: boolean) => (full = value),
    drain: () => drain?.(),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const result = (id: number): JsonRpcMessage => ({ jsonrpc: '2.0', id, result: {} });

describe('MessageChannel', () => {
  it('writes the answers that finish in one tick in one write, in order', async () => {
    const { channel, writes, answer } = harness();
    channel.receive('a');
    channel.receive('b');
    expect(channel.pending).toBe(2);
    answer('b', result(2));
    answer('a', result(1));
    await tick();
    expect(writes).toEqual([['{"jsonrpc":"2.0","id":2,"result":{}}', '{"jsonrpc":"2.0","id":1,"result":{}}']]);
    expect(channel.pending).toBe(0);
  });

  it('stops reading while the peer does not drain, and reads again once it has', async () => {
    const h = harness();
    h.fill(true);
    h.channel.receive('a');
    h.answer('a', result(1));
    await tick();
    expect(h.input).toEqual({ paused: true, pauses: 1 });
    // Still full: no second pause is asked while the first waits.
    h.channel.receive('b');
    h.answer('b', result(2));
    await tick();
    expect(h.input.pauses).toBe(1);
    h.fill(false);
    h.drain();
    expect(h.input.paused).toBe(false);
  });

  it('answers a message over maxMessageBytes -32600 without running it', async () => {
    const dispatch = jest.fn();
    const { channel, writes } = harness({ maxMessageBytes: 8, dispatch });
    channel.receive('"ééééé"'); // 7 characters, 12 bytes
    await tick();
    expect(dispatch).not.toHaveBeenCalled();
    expect(JSON.parse(writes[0][0])).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Message exceeds the maximum size of 8 bytes' } });
  });

  it('tells when nothing is in flight', async () => {
    const { channel, answer } = harness();
    await channel.idle();
    channel.receive('a');
    let idle = false;
    void channel.idle().then(() => (idle = true));
    await tick();
    expect(idle).toBe(false);
    answer('a', undefined); // a notification: no answer, still settled
    await tick();
    expect(idle).toBe(true);
  });

  it('settles a request whose dispatch fails, logs it, and writes nothing for it', async () => {
    const error = jest.fn();
    const logger = { error, warn: jest.fn(), info: jest.fn(), debug: jest.fn(), trace: jest.fn(), fatal: jest.fn(), level: 'info', child: () => logger };
    const { channel, writes } = harness({ dispatch: () => Promise.reject(new Error('bug')), logger: logger as never });
    channel.receive('a');
    await channel.idle();
    await tick();
    expect(error).toHaveBeenCalledWith({ err: expect.any(Error) }, 'unexpected dispatcher failure');
    expect(writes).toEqual([]);
  });

  it('sends what a request says before its answer, and nothing after close', async () => {
    let say!: (message: JsonRpcMessage) => void;
    const { channel, writes } = harness({
      dispatch: (_text, send) => ((say = send), new Promise<ChannelAnswer>((resolve) => void setImmediate(() => resolve(result(1))))),
    });
    channel.receive('a');
    say({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } });
    await channel.idle();
    await tick();
    expect(writes.flat().map((text) => JSON.parse(text).method ?? JSON.parse(text).id)).toEqual(['notifications/message', 1]);
    channel.close();
    channel.send(result(9));
    await tick();
    expect(writes.flat()).toHaveLength(2);
  });

  it('writes what waits at once on flush (before an exit)', () => {
    const { channel, writes } = harness();
    channel.send({ jsonrpc: '2.0', method: 'notifications/message', params: {} });
    expect(writes).toEqual([]);
    channel.flush();
    expect(writes).toHaveLength(1);
  });
});
