import pino from 'pino';
import { ExactNumberId } from '../protocol/exact-id';
import { markFastLines } from './fast-destination';
import { msText, requestLine } from './fast-line';
import { LogDestination } from './log-destination';

/** A LogDestination that keeps what it is given. */
class Captured extends LogDestination {
  readonly written: string[] = [];
  override write(line: string): boolean {
    this.written.push(line);
    return true;
  }
}

function pair(options: pino.LoggerOptions = {}) {
  const fast = new Captured();
  const slow = new Captured();
  const fastLogger = pino({ name: 'srv', ...options }, fast);
  markFastLines(fastLogger, fast);
  const slowLogger = pino({ name: 'srv', ...options }, slow);
  return { fast, slow, fastLogger, slowLogger };
}

const withoutTime = (line: string) => JSON.parse(line.replace(/"time":\d+/, '"time":0'));

describe('requestLine', () => {
  it.each([
    ['scalars', { rpcId: 1, method: 'tools/call', target: 'ec"ho\n✓' }],
    ['an exact id and a string id', { rpcId: new ExactNumberId('9223372036854775807'), other: 'x', nan: Number.NaN }],
    ['undefined fields', { rpcId: 's', target: undefined }],
  ])('writes what pino writes for %s, through children', (_name, fields) => {
    const { fast, slow, fastLogger, slowLogger } = pair();
    requestLine(fastLogger.child({ transport: 'http' }).child({ reqId: 'req-1', sessionId: 'a"b' }), fields, 0.042, 'error -32602');
    slowLogger
      .child({ transport: 'http' })
      .child({ reqId: 'req-1', sessionId: 'a"b' })
      .info({ ...fields, ms: 0.042, outcome: 'error -32602' }, 'request');
    expect(fast.written).toHaveLength(1);
    expect(fast.written[0].replace(/"time":\d+/, '')).toBe(slow.written[0].replace(/"time":\d+/, ''));
  });

  it('leaves objects, arrays and errors to pino', () => {
    const { fast, fastLogger } = pair();
    const info = jest.spyOn(fastLogger, 'info');
    requestLine(fastLogger, { arguments: { a: [1, 2] } }, 1, 'ok');
    expect(info).toHaveBeenCalledTimes(1);
    expect(withoutTime(fast.written[0])).toMatchObject({ arguments: { a: [1, 2] }, ms: 1, outcome: 'ok', msg: 'request' });
  });

  it('uses logger.info on a logger it does not know, and on one with a mixin', () => {
    const other = { info: jest.fn() } as never;
    requestLine(other, { rpcId: 1 }, 2, 'ok');
    expect((other as { info: jest.Mock }).info).toHaveBeenCalledWith({ rpcId: 1, ms: 2, outcome: 'ok' }, 'request');
    const { fast, fastLogger } = pair({ mixin: () => ({ extra: 1 }) });
    requestLine(fastLogger, { rpcId: 2 }, 3, 'ok');
    expect(withoutTime(fast.written[0])).toMatchObject({ extra: 1, rpcId: 2, ms: 3 });
  });

  it('writes every line of a run as pino does, past the bounds of its caches', () => {
    const { fast, slow, fastLogger, slowLogger } = pair();
    // 1 200 names (more than a cache holds), each twice, ids and outcomes varying.
    for (let i = 0; i < 2_400; i++) {
      const fields = { rpcId: i, method: 'tools/call', target: `tool_${i % 1_200}`, sessionId: i % 3 === 0 ? 'a"b' : 'c' };
      const outcome = i % 5 === 0 ? 'error -32602' : 'ok';
      const code = i % 5 === 0 ? -32602 : undefined;
      const ms = Math.round(i * 1.37 * 1000) / 1000;
      requestLine(i % 2 === 0 ? fastLogger : fastLogger.child({ transport: 'stdio' }), fields, ms, outcome, code);
      (i % 2 === 0 ? slowLogger : slowLogger.child({ transport: 'stdio' })).info(
        { ...fields, ms, outcome, ...(code === undefined ? {} : { code }) },
        'request',
      );
    }
    expect(fast.written.map((line) => line.replace(/"time":\d+/, ''))).toEqual(slow.written.map((line) => line.replace(/"time":\d+/, '')));
  });

  it('writes a field whose values never repeat (a request id) as pino does, before and after it stops caching them', () => {
    const { fast, slow, fastLogger, slowLogger } = pair();
    // 1 000 distinct reqIds (past the 256 misses that end their caching), beside a repeating sessionId.
    for (let i = 0; i < 1_000; i++) {
      const fields = { rpcId: i, method: 'tools/call', reqId: `req-${i.toString(36)}`, sessionId: i % 2 === 0 ? 's"1' : 's2' };
      requestLine(fastLogger, fields, 0.5, 'ok');
      slowLogger.info({ ...fields, ms: 0.5, outcome: 'ok' }, 'request');
    }
    expect(fast.written.map((line) => line.replace(/"time":\d+/, ''))).toEqual(slow.written.map((line) => line.replace(/"time":\d+/, '')));
  });
});

it('keeps no long client-written value: 600 distinct 1 MB ids leave the heap as it was', () => {
  const { fast, fastLogger } = pair();
  const big = 'x'.repeat(1024 * 1024);
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 600; i++) {
    requestLine(fastLogger, { rpcId: `${i}${big}`, method: 'tools/call' }, 0.1, 'ok');
    fast.written.length = 0;
  }
  global.gc?.();
  // Kept, they would be 600 MB (1.2 GB as two-byte text); the line strings themselves are garbage.
  expect(process.memoryUsage().heapUsed - before).toBeLessThan(200 * 1024 * 1024);
});

it('keeps no client string a cached value was cut from: 400 trace ids from 1 MB traceparents leave the heap as it was', () => {
  const { fast, fastLogger } = pair();
  const tail = 'x'.repeat(1024 * 1024);
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 400; i++) {
    // What a regex capture gives: a short string cut from a long one, which V8 keeps alive with it.
    const traceparent = `01-${i.toString(16).padStart(32, '0')}-0000000000000001-01-${tail}`;
    requestLine(fastLogger, { rpcId: i, traceId: /^[\da-f]{2}-([\da-f]{32})-/.exec(traceparent)![1] }, 0.1, 'ok');
    fast.written.length = 0;
  }
  global.gc?.();
  expect(process.memoryUsage().heapUsed - before).toBeLessThan(150 * 1024 * 1024);
});

it('escapes field names as pino does, and writes a non-finite ms as null', () => {
  const { fast, slow, fastLogger, slowLogger } = pair();
  requestLine(fastLogger, { 'a"b': 1 }, Number.NaN, 'ok');
  slowLogger.info({ 'a"b': 1, ms: Number.NaN, outcome: 'ok' }, 'request');
  expect(fast.written[0].replace(/"time":\d+/, '')).toBe(slow.written[0].replace(/"time":\d+/, ''));
});

describe('msText', () => {
  it('reads as String(ms) for any number of microseconds', () => {
    const samples = [0, 1, 5, 10, 50, 100, 999, 1000, 1001, 75_050, 123_456, 2_147_483_647, 2_147_483_648, 9_007_199_254_740];
    for (let micros = 0; micros < 20_000; micros += 7) samples.push(micros);
    for (const micros of samples) {
      const ms = Math.round((micros / 1000) * 1000) / 1000;
      expect(msText(ms)).toBe(String(ms));
    }
  });

  it('falls back to the double for values of another form', () => {
    for (const ms of [0.0001, -1, 1.23456, Number.MAX_SAFE_INTEGER]) expect(msText(ms)).toBe(String(ms));
    for (const ms of [Number.NaN, Infinity, -Infinity]) expect(msText(ms)).toBe('null');
  });
});
