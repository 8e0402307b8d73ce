import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { VALID } from './support';

/**
 * The behaviour every message transport of the testbed shows, in both eras, driven with raw
 * JSON-RPC frames so that any transport (stdio lines, WebSocket messages, a user's own) can be
 * held to it: give `describeBehaviour` a way to open a `Peer`.
 */
export interface Peer {
  /** Sends one frame (an object is serialised; a string goes as it is). */
  send(frame: object | string): void;
  /** Every message received so far, in order. */
  readonly received: ReadonlyArray<Record<string, unknown>>;
  close(): Promise<void>;
}

export type Era = 'legacy' | 'modern';

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'behaviour', version: '1' },
};

/** Waits until `peer` has received a message matching `match` (by polling its list; no clock is asserted). */
export async function receivedWhere(peer: Peer, match: (message: Record<string, unknown>) => boolean, what: string): Promise<Record<string, unknown>> {
  for (let waited = 0; waited < 10_000; waited += 10) {
    const found = peer.received.find(match);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never received ${what}; got ${JSON.stringify(peer.received).slice(0, 500)}`);
}

/** A client of one era over `peer`: requests with their era's shape, answers by id. */
class EraClient {
  private next = 0;

  constructor(
    readonly peer: Peer,
    private readonly era: Era,
  ) {}

  async open(): Promise<void> {
    if (this.era === 'modern') return;
    await this.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'behaviour', version: '1' } });
    this.peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /** Sends a request and returns its id without waiting. */
  start(method: string, params: Record<string, unknown> = {}): string {
    const id = `r${++this.next}`;
    this.peer.send({ jsonrpc: '2.0', id, method, params: this.era === 'modern' ? { ...params, _meta: MODERN_META } : params });
    return id;
  }

  answerTo(id: string): Promise<Record<string, unknown>> {
    return receivedWhere(this.peer, (message) => message.id === id && !('method' in message), `the answer to ${id}`);
  }

  request(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    return this.answerTo(this.start(method, params));
  }

  async call(name: string, args: Record<string, unknown>): Promise<{ isError?: boolean; content: Array<{ text: string }> }> {
    const answer = await this.request('tools/call', { name, arguments: args });
    if (answer.error) throw new Error(`tools/call ${name}: ${JSON.stringify(answer.error)}`);
    return answer.result as { isError?: boolean; content: Array<{ text: string }> };
  }
}

/** The suite: for each era, one peer for all its tests. */
export function describeBehaviour(transport: string, openPeer: () => Promise<Peer>): void {
  describe.each<Era>(['legacy', 'modern'])(`testbed behaviour over ${transport}, %s era`, (era) => {
    let client: EraClient;

    beforeAll(async () => {
      client = new EraClient(await openPeer(), era);
      await client.open();
    });
    afterAll(() => client.peer.close());

    it('lists the tools and calls them', async () => {
      const listed = await client.request('tools/list');
      expect((listed.result as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['echo', 'add', 'validate', 'fail', 'slow']),
      );
      expect((await client.call('echo', { text: 'héllo ✓' })).content[0].text).toBe('héllo ✓');
      expect((await client.call('add', { a: 2.5, b: -1 })).content[0].text).toBe('1.5');
      expect((await client.call('validate', VALID)).content[0].text).toBe('valid:Ada:36:2:12345:-');
    });

    it('answers bad input clearly and keeps serving', async () => {
      const invalid = await client.call('validate', { ...VALID, age: 200 });
      expect(invalid.isError).toBe(true);
      expect(invalid.content[0].text).toContain('- age:');
      expect((await client.call('fail', {})).isError).toBe(true);
      const unknown = await client.request('tools/call', { name: 'nope', arguments: {} });
      expect(unknown.error).toMatchObject({ code: -32602 });
      client.peer.send('{"jsonrpc":"2.0","id":"broken",');
      await receivedWhere(client.peer, (message) => (message.error as { code?: number } | undefined)?.code === -32700, 'the -32700 answer');
      expect((await client.call('echo', { text: 'still here' })).content[0].text).toBe('still here');
    });

    it('answers each of many requests in flight exactly once', async () => {
      const ids = Array.from({ length: 24 }, (_, i) => client.start('tools/call', { name: 'echo', arguments: { text: `n${i}` } }));
      const answers = await Promise.all(ids.map((id) => client.answerTo(id)));
      expect(answers.map((answer) => (answer.result as { content: Array<{ text: string }> }).content[0].text)).toEqual(ids.map((_, i) => `n${i}`));
      for (const id of ids) expect(client.peer.received.filter((message) => message.id === id)).toHaveLength(1);
    });

    it('sends nothing for a cancelled request, and serves the next one', async () => {
      const cancelled = client.start('tools/call', { name: 'slow', arguments: { ms: 200 } });
      client.peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: cancelled, reason: 'changed my mind' } });
      // Started after it and due later: had the cancellation not stopped the first, its answer would come first.
      expect((await client.call('slow', { ms: 400 })).content[0].text).toBe('slept 400');
      expect(client.peer.received.filter((message) => message.id === cancelled)).toEqual([]);
    });
  });
}

/** A peer on the built testbed over stdio: a child process, one message per line. */
export async function stdioPeer(): Promise<Peer> {
  const child = spawn(process.execPath, [join(__dirname, '..', 'dist', 'main.js'), 'stdio'], {
    env: { ...process.env, LOG_LEVEL: 'silent' },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const received: Array<Record<string, unknown>> = [];
  let rest = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop()!;
    for (const line of lines) if (line !== '') received.push(JSON.parse(line) as Record<string, unknown>);
  });
  return {
    received,
    send: (frame) => child.stdin!.write(`${typeof frame === 'string' ? frame : JSON.stringify(frame)}\n`),
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.stdin!.end();
      }),
  };
}
