import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RawStdioClient } from '@mcpkit/testing';

// An adversarial client against the built testbed over real stdio (`pnpm test` builds first).
// Every case checks the answer, then that the same process still serves a normal request.
const TESTBED = join(__dirname, '..', '..', '..', 'apps', 'testbed', 'dist', 'main.js');
const ENV = { ...process.env, LOG_LEVEL: 'warn' };
const MAX_MESSAGE_SIZE = 64 * 1024 * 1024; // serveStdio's default, which the testbed keeps

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a hostile client over stdio', () => {
  let server: RawStdioClient;
  let echoes = 0;

  beforeEach(async () => {
    server = RawStdioClient.spawn(process.execPath, [TESTBED, 'stdio'], ENV);
    await server.initialize();
  });

  afterEach(async () => {
    server.kill();
    await server.exited;
  });

  /** The server still answers a normal request, and stdout carried nothing but JSON. */
  async function expectServing(): Promise<void> {
    const text = `still here ${++echoes}`;
    expect(await server.request('tools/call', { name: 'echo', arguments: { text } })).toMatchObject({ result: { content: [{ type: 'text', text }] } });
    expect(server.stray).toEqual([]);
  }

  /** Writes `data`, then returns every message that arrives before the answer to a ping sent after it. */
  async function answersTo(data: string | Buffer): Promise<Array<Record<string, unknown>>> {
    const before = server.messages.length;
    if (typeof data === 'string') server.writeLine(data);
    else server.write(data);
    const ping = await server.request('ping');
    return server.messages.slice(before).filter((message) => message !== ping);
  }

  describe('malformed envelopes', () => {
    const parseError = { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32700 }) };
    const invalid = (id: unknown) => ({ jsonrpc: '2.0', id, error: expect.objectContaining({ code: -32600 }) });

    it.each([
      ['not JSON', 'hello there'],
      ['truncated JSON', '{"jsonrpc":"2.0","id":1,"method":"ping"'],
      ['a byte-order mark', '\ufeff{"jsonrpc":"2.0","id":1,"method":"ping"}'],
      ['a lone brace', '{'],
    ])('answers %s with -32700 and id null', async (_name, line) => {
      expect(await answersTo(line)).toEqual([expect.objectContaining(parseError)]);
      await expectServing();
    });

    it.each([
      ['jsonrpc "1.0"', '{"jsonrpc":"1.0","id":"v","method":"ping"}', 'v'],
      ['no jsonrpc', '{"id":"v","method":"ping"}', 'v'],
      ['a number', '42', null],
      ['a string', '"ping"', null],
      ['null', 'null', null],
      ['true', 'true', null],
      ['an array outside 2025-03-26', '[{"jsonrpc":"2.0","id":"a","method":"ping"}]', null],
      ['an empty array', '[]', null],
      ['a null id', '{"jsonrpc":"2.0","id":null,"method":"ping"}', null],
      ['an object id', '{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}', null],
      ['a numeric method', '{"jsonrpc":"2.0","id":"m","method":5}', 'm'],
      ['no method', '{"jsonrpc":"2.0","id":"m"}', 'm'],
    ])('answers %s with -32600', async (_name, line, id) => {
      expect(await answersTo(line)).toEqual([expect.objectContaining(invalid(id))]);
      await expectServing();
    });

    it.each([
      ['an array', '[1,2]'],
      ['a string', '"x"'],
      ['a number', '7'],
    ])('answers params as %s with -32602 for the request id', async (_name, params) => {
      expect(await answersTo(`{"jsonrpc":"2.0","id":"p","method":"tools/list","params":${params}}`)).toEqual([
        expect.objectContaining({ id: 'p', error: expect.objectContaining({ code: -32602 }) }),
      ]);
      await expectServing();
    });

    it('ignores a response to no request of ours, and an error response too', async () => {
      expect(await answersTo('{"jsonrpc":"2.0","id":"nobody-asked","result":{"x":1}}')).toEqual([]);
      expect(await answersTo('{"jsonrpc":"2.0","id":77,"error":{"code":-1,"message":"no"}}')).toEqual([]);
      await expectServing();
    });

    it('answers a line of invalid UTF-8 with -32700', async () => {
      expect(await answersTo(Buffer.from([0xff, 0xfe, 0x80, 0x0a]))).toEqual([expect.objectContaining(parseError)]);
      await expectServing();
    });

    it('reads invalid UTF-8 inside a string as U+FFFD', async () => {
      const line = Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":"u","method":"tools/call","params":{"name":"echo","arguments":{"text":"a'),
        Buffer.from([0xff, 0xc3]),
        Buffer.from('b"}}}\n'),
      ]);
      expect(await answersTo(line)).toEqual([expect.objectContaining({ id: 'u', result: { content: [{ type: 'text', text: 'a\ufffd\ufffdb' }] } })]);
      await expectServing();
    });

    it('accepts CRLF line ends and skips blank and whitespace-only lines', async () => {
      expect(await answersTo('{"jsonrpc":"2.0","id":"crlf","method":"ping"}\r\n\n\r\n   \n\t')).toEqual([expect.objectContaining({ id: 'crlf', result: {} })]);
      await expectServing();
    });
  });

  describe('size and depth', () => {
    it('answers a line over maxMessageBytes with -32600, holds no more than the limit, and serves the next line', async () => {
      const idle = rssMb(server.child.pid!);
      const line = `{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"echo","arguments":{"text":"${'x'.repeat(MAX_MESSAGE_SIZE + 1024)}"}}}`;
      // The next request rides in the same write, right behind the newline.
      server.write(`${line}\n{"jsonrpc":"2.0","id":"after","method":"ping"}\n`);
      expect(await server.waitFor((message) => message.id === 'after', 20_000)).toMatchObject({ result: {} });
      expect(server.messages).toContainEqual(
        expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600, message: expect.stringContaining('maximum size') }) }),
      );
      expect(server.messages.some((message) => message.id === 'big')).toBe(false);
      expect(rssMb(server.child.pid!) - idle).toBeLessThan(MAX_MESSAGE_SIZE / 1024 / 1024 + 64);
      await expectServing();
    }, 30_000);

    it('answers 100 000 nested arrays, as a message and as arguments, and stays up', async () => {
      const deep = '['.repeat(100_000) + ']'.repeat(100_000);
      expect(await answersTo(deep)).toEqual([expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) })]);
      expect(await answersTo(`{"jsonrpc":"2.0","id":"d","method":"tools/call","params":{"name":"echo","arguments":{"text":${deep}}}}`)).toEqual([
        expect.objectContaining({ id: 'd', result: expect.objectContaining({ isError: true }) }),
      ]);
      expect(await answersTo(`{"jsonrpc":"2.0","id":${deep},"method":"ping"}`)).toEqual([
        expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }),
      ]);
      await expectServing();
    });

    it('answers 100 000 nested objects in params and in _meta', async () => {
      const deep = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
      expect(await answersTo(`{"jsonrpc":"2.0","id":"o","method":"ping","params":{"x":${deep}}}`)).toEqual([expect.objectContaining({ id: 'o' })]);
      expect(await answersTo(`{"jsonrpc":"2.0","id":"m","method":"tools/call","params":{"name":"echo","arguments":{"text":"t"},"_meta":${deep}}}`)).toEqual([
        expect.objectContaining({ id: 'm' }),
      ]);
      await expectServing();
    });
  });

  describe('floods', () => {
    it('answers 10 000 requests written while it was not read, in bounded memory', async () => {
      const idle = rssMb(server.child.pid!);
      server.child.stdout.pause();
      let flood = '';
      for (let i = 0; i < 10_000; i++) flood += `{"jsonrpc":"2.0","id":"f${i}","method":"tools/call","params":{"name":"echo","arguments":{"text":"${i}"}}}\n`;
      server.write(flood);
      await sleep(1_000);
      // Backpressure: the server stopped reading instead of queueing every answer.
      const whilePaused = rssMb(server.child.pid!);
      server.child.stdout.resume();
      await server.waitFor((message) => message.id === 'f9999', 30_000);
      const answered = new Map(
        server.messages.filter((message) => typeof message.id === 'string' && message.id.startsWith('f')).map((message) => [message.id, message]),
      );
      expect(answered.size).toBe(10_000);
      expect(answered.get('f1234')).toMatchObject({ result: { content: [{ text: '1234' }] } });
      expect(whilePaused - idle).toBeLessThan(128);
      expect(rssMb(server.child.pid!) - idle).toBeLessThan(128);
      await expectServing();
    }, 40_000);
  });

  describe('requests in flight', () => {
    // Each open listen is a request in flight until cancelled: 20 000 of them held 80 MB.
    it('runs at most maxRequestsInFlight (1 000) at once, listens included, answers the rest -32005, and serves again once one ends', async () => {
      const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
      const listen = (id: string) =>
        JSON.stringify({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { _meta: meta, notifications: { toolsListChanged: true } } });
      let flood = '';
      for (let i = 0; i < 1_200; i++) flood += `${listen(`l${i}`)}\n`;
      server.write(flood);
      await server.waitFor((message) => message.id === 'l1199');
      const acknowledged = server.messages.filter((message) => message.method === 'notifications/subscriptions/acknowledged');
      const refused = server.messages.filter((message) => (message.error as { code?: number } | undefined)?.code === -32005);
      expect(acknowledged).toHaveLength(1_000);
      expect(refused.map((message) => message.id)).toEqual(Array.from({ length: 200 }, (_, i) => `l${1_000 + i}`));
      expect(refused[0]).toEqual({
        jsonrpc: '2.0',
        id: 'l1000',
        error: {
          code: -32005,
          message: 'Too many requests in flight: this connection already runs 1000; wait for some to finish (or cancel them) and send again',
          data: { limit: 1_000 },
        },
      });
      expect(await server.request('ping')).toMatchObject({ error: { code: -32005 } });
      // One listen cancelled makes room.
      server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'l0' } });
      await expectServing();
    }, 30_000);
  });

  describe('a client that reads no stderr', () => {
    it('serves on at the default log level while stderr is full, and its lines catch up once read', async () => {
      // Its own server, logging at info (the default): one request line per call.
      const env = { ...process.env };
      delete env.LOG_LEVEL;
      const logging = RawStdioClient.spawn(process.execPath, [TESTBED, 'stdio'], env);
      try {
        await logging.initialize();
        logging.child.stderr.pause();
        // ~200 bytes a line: 4 000 calls overfill a 64 KiB pipe many times.
        for (let wave = 0; wave < 40; wave++) {
          await Promise.all(
            Array.from({ length: 100 }, (_, i) => logging.request('tools/call', { name: 'echo', arguments: { text: `${wave}-${i}` } }, 10_000)),
          );
        }
        logging.child.stderr.resume();
        const deadline = Date.now() + 10_000;
        while (!logging.stderr.includes('"rpcId"') && Date.now() < deadline) await sleep(50);
        expect(logging.stderr).toContain('"msg":"request"');
      } finally {
        logging.kill();
        await logging.exited;
      }
    }, 60_000);
  });

  describe('cancellation races', () => {
    const cancel = (requestId: unknown) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'race' } });
    const echo = (id: unknown, text: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } });
    const answersFor = (id: unknown) => server.messages.filter((message) => message.id === id);

    it('ignores a cancel that comes before its request: the request is answered once', async () => {
      server.send(cancel('early'));
      server.send(echo('early', 'first'));
      await server.waitFor((message) => message.id === 'early');
      await server.request('ping');
      expect(answersFor('early')).toHaveLength(1);
      await expectServing();
    });

    it('ignores a cancel after the response, and the id can be used again', async () => {
      server.send(echo('late', 'one'));
      await server.waitFor((message) => message.id === 'late');
      server.send(cancel('late'));
      await server.request('ping');
      expect(answersFor('late')).toHaveLength(1);
      server.send(echo('late', 'two'));
      await server.waitFor((message) => message.id === 'late' && (message.result as { content: Array<{ text: string }> }).content[0].text === 'two');
      expect(answersFor('late')).toHaveLength(2);
      await expectServing();
    });

    it('never answers a request cancelled while it runs, and frees its id', async () => {
      server.send({ jsonrpc: '2.0', id: 'slow', method: 'tools/call', params: { name: 'slow', arguments: { ms: 5_000 } } });
      await sleep(50);
      server.send(cancel('slow'));
      await sleep(100);
      server.send(echo('slow', 'reused'));
      expect(await server.waitFor((message) => message.id === 'slow')).toMatchObject({ result: { content: [{ text: 'reused' }] } });
      await server.request('ping');
      expect(answersFor('slow')).toHaveLength(1);
      await expectServing();
    });

    it('answers a request and its cancel sent in one write at most once, 200 times over', async () => {
      let batch = '';
      for (let i = 0; i < 200; i++) batch += `${JSON.stringify(echo(`r${i}`, String(i)))}\n${JSON.stringify(cancel(`r${i}`))}\n`;
      server.write(batch);
      await server.request('ping');
      await sleep(200);
      for (let i = 0; i < 200; i++) expect(answersFor(`r${i}`).length).toBeLessThanOrEqual(1);
      server.send(echo('r7', 'again'));
      await server.waitFor((message) => message.id === 'r7' && (message.result as { content: Array<{ text: string }> }).content[0].text === 'again');
      await expectServing();
    });
  });

  describe('abandoned input', () => {
    it('exits 0 when stdin closes in the middle of a line', async () => {
      await expectServing();
      server.write('{"jsonrpc":"2.0","id":"cut","meth');
      expect(await server.end()).toEqual({ code: 0, signal: null });
      expect(server.messages.some((message) => message.id === 'cut')).toBe(false);
      expect(server.stray).toEqual([]);
    });

    it('finishes the request in flight, then exits 0, when stdin closes mid-line after it', async () => {
      server.send({ jsonrpc: '2.0', id: 'inflight', method: 'tools/call', params: { name: 'slow', arguments: { ms: 200 } } });
      server.write('{"jsonrpc":"2.0","id":"cut","meth');
      expect(await server.end()).toEqual({ code: 0, signal: null });
      expect(server.messages.find((message) => message.id === 'inflight')).toMatchObject({ result: { content: [{ text: 'slept 200' }] } });
    });
  });
});
