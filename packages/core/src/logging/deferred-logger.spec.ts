import pino from 'pino';
import { DeferredLogger } from './deferred-logger';
import { markFastLines } from './fast-destination';
import { requestLine } from './fast-line';
import { LogDestination } from './log-destination';
import type { Logger } from './logger';

/** A LogDestination that keeps what it is given. */
class Captured extends LogDestination {
  readonly written: string[] = [];
  override write(line: string): boolean {
    this.written.push(line);
    return true;
  }
}

const untimed = (lines: string[]) => lines.map((line) => line.replace(/"time":\d+/, '"time":0'));

function pair(level = 'info') {
  const deferred = new Captured();
  const eager = new Captured();
  const logger = DeferredLogger.create({ name: 'srv', level, destination: deferred });
  const reference = pino({ name: 'srv', level }, eager);
  markFastLines(reference, eager);
  return { deferred, eager, logger, reference };
}

/** The same calls on both loggers. */
function both(logger: Logger, reference: Logger, act: (logger: Logger) => void): void {
  act(logger);
  act(reference);
}

describe('DeferredLogger (createLogger)', () => {
  it('writes request lines byte for byte as pino does, through children, without loading pino', () => {
    const { deferred, eager, logger, reference } = pair();
    both(logger, reference, (target) =>
      requestLine(target.child({ transport: 'stdio' }).child({ sessionId: 'a"b', n: 2, ok: true }), { rpcId: 7, method: 'tools/list' }, 0.1, 'ok'),
    );
    expect(untimed(deferred.written)).toEqual(untimed(eager.written));
    expect((logger as unknown as { pinoLogger?: unknown }).pinoLogger).toBeUndefined();
  });

  it('any other line goes through pino, with the same bytes as a pino logger made directly', () => {
    const { deferred, eager, logger, reference } = pair();
    both(logger, reference, (target) => {
      target.child({ transport: 'http' }).warn({ err: new Error('boom'), detail: { a: [1] } }, 'it %s', 'failed');
      target.info('plain');
      target.child({ nested: { x: 1 } }).error('object bindings');
    });
    const clean = (lines: string[]) => untimed(lines).map((line) => line.replace(/"stack":"[^"]*"/, '"stack":""'));
    expect(clean(deferred.written)).toEqual(clean(eager.written));
    expect(deferred.written).toHaveLength(3);
  });

  it('writes nothing below its level, and answers levels without pino', () => {
    const { deferred, logger } = pair('warn');
    logger.info('hidden');
    logger.child({ a: 1 }).debug('hidden');
    expect(deferred.written).toEqual([]);
    expect(logger.level).toBe('warn');
    expect(logger.isLevelEnabled!('error')).toBe(true);
    expect(logger.isLevelEnabled!('info')).toBe(false);
    expect((logger as unknown as { pinoLogger?: unknown }).pinoLogger).toBeUndefined();
  });

  it('a child starts at its parent level and keeps its own; levels carry over when pino loads', () => {
    const { deferred, logger } = pair('info');
    const child = logger.child({ part: 'x' });
    child.level = 'error';
    expect(logger.level).toBe('info');
    logger.level = 'debug';
    expect(child.level).toBe('error');
    child.warn('hidden');
    logger.debug('shown');
    child.error('shown too');
    expect(untimed(deferred.written).map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['shown', 'shown too']);
    expect(logger.level).toBe('debug');
    expect(child.level).toBe('error');
  });

  it('a plain child made after pino loaded is still deferred, with the same bytes and levels as a pino child', () => {
    const { deferred, eager, logger, reference } = pair('info');
    both(logger, reference, (target) => target.warn('loads pino'));
    expect((logger as unknown as { pinoLogger?: unknown }).pinoLogger).toBeDefined();
    const children = [logger.child({ reqId: 'req-1' }), reference.child({ reqId: 'req-1' })];
    expect((children[0] as unknown as { pinoLogger?: unknown }).pinoLogger).toBeUndefined();
    for (const child of children) requestLine(child, { rpcId: 1, method: 'tools/call', target: 'echo' }, 0.1, 'ok');
    expect((children[0] as unknown as { pinoLogger?: unknown }).pinoLogger).toBeUndefined();
    logger.level = reference.level = 'error';
    for (const child of children) child.warn('hidden: the parent is at error now');
    for (const child of children) child.error({ err: new Error('boom') }, 'through pino, with its bindings');
    expect(children[0].bindings!()).toEqual(children[1].bindings!());
    const withoutStack = (line: string) => line.replace(/"stack":"[^"]*"/, '"stack":""');
    expect(untimed(deferred.written).map(withoutStack)).toEqual(untimed(eager.written).map(withoutStack));
    expect(deferred.written).toHaveLength(3);
  });

  it('an unknown level is refused as pino refuses it', () => {
    const { logger } = pair();
    expect(() => (logger.level = 'loud')).toThrow(/unknown level/);
    expect(() => pair('loud')).toThrow(/unknown level/);
  });

  it('a child with options is a pino child (serializers apply)', () => {
    const { deferred, logger } = pair();
    const child = logger.child({ a: 1 }, { serializers: { secret: () => '[hidden]' } } as never);
    child.info({ secret: 's' }, 'x');
    expect(JSON.parse(deferred.written[0])).toMatchObject({ a: 1, secret: '[hidden]', msg: 'x' });
  });

  it('a child without a level of its own follows its parent, before and after pino loads, as a pino child does', () => {
    const { deferred, eager, logger, reference } = pair('info');
    const children = [logger.child({ conn: 1 }), reference.child({ conn: 1 })];
    logger.level = reference.level = 'debug';
    for (const child of children) child.debug('debug while the parent is at debug');
    expect(children.map((child) => [child.level, child.isLevelEnabled!('debug')])).toEqual([
      ['debug', true],
      ['debug', true],
    ]);
    logger.level = reference.level = 'trace';
    for (const child of children) child.trace('trace after pino loaded');
    children[0].level = children[1].level = 'error';
    logger.level = reference.level = 'debug';
    for (const child of children) child.warn('hidden: the child has its own level now');
    expect(untimed(deferred.written)).toEqual(untimed(eager.written));
    expect(deferred.written).toHaveLength(2);
  });

  it('the request lines of a child with options go through pino, so its redaction and serializers apply', () => {
    const { deferred, logger } = pair();
    const child = logger.child({ svc: 'x' }, { redact: ['target'], serializers: { method: (method: string) => method.toUpperCase() } } as never);
    requestLine(child, { rpcId: 1, method: 'tools/call', target: 'secret' }, 0.1, 'ok');
    expect(JSON.parse(deferred.written[0])).toMatchObject({ svc: 'x', method: 'TOOLS/CALL', target: '[Redacted]', msg: 'request' });
  });

  it("keeps request lines off pino under a pino child whose options touch none of the line's fields (Fastify's)", () => {
    const { deferred, eager, logger, reference } = pair();
    const options = { serializers: { req: (req: unknown) => req, res: (res: unknown) => res } } as never;
    const children = [logger.child({}, options).child({ reqId: 'req-1' }, {} as never), reference.child({}, options).child({ reqId: 'req-1' }, {})];
    const info = jest.spyOn(children[0], 'info');
    requestLine(children[0], { rpcId: 1, method: 'tools/call', target: 'echo' }, 0.1, 'ok');
    children[1].info({ rpcId: 1, method: 'tools/call', target: 'echo', ms: 0.1, outcome: 'ok' }, 'request');
    expect(info).not.toHaveBeenCalled();
    expect(untimed(deferred.written)).toEqual(untimed(eager.written));
  });

  it('censors credentials wherever a line carries them: request headers, OAuth fields, child bindings, logged arguments', () => {
    const { deferred, logger } = pair();
    logger.info(
      { req: { headers: { authorization: 'Bearer abc', host: 'h' } }, access_token: 'at', body: { refresh_token: 'rt', client_secret: 'cs' } },
      'one',
    );
    logger.child({ token: 'child-token', svc: 'x' }).info({ id_token: 'it' }, 'two');
    requestLine(logger.child({ reqId: 'r' }), { rpcId: 1, method: 'tools/call', arguments: { token: 'arg-token', text: 'hi' } }, 0.1, 'ok');
    const text = deferred.written.join('');
    for (const secret of ['abc', '"at"', 'rt', 'cs', 'child-token', '"it"', 'arg-token']) expect(text).not.toContain(secret);
    expect(deferred.written.map((line) => JSON.parse(line) as Record<string, unknown>)).toMatchObject([
      {
        req: { headers: { authorization: '[Redacted]', host: 'h' } },
        access_token: '[Redacted]',
        body: { refresh_token: '[Redacted]', client_secret: '[Redacted]' },
      },
      { token: '[Redacted]', svc: 'x', id_token: '[Redacted]' },
      { reqId: 'r', arguments: { token: '[Redacted]', text: 'hi' }, msg: 'request' },
    ]);
  });

  it('keeps request lines off pino under its credential redaction: none of their fields is a credential', () => {
    const { deferred, logger } = pair();
    // Loads pino: the child below is a pino child, carrying the root's redaction.
    logger.info('loaded');
    const child = logger.child({}, { serializers: { req: (req: unknown) => req } } as never).child({ reqId: 'req-1' }, {} as never);
    const info = jest.spyOn(child, 'info');
    requestLine(child, { rpcId: 1, method: 'tools/call', target: 'echo' }, 0.1, 'ok');
    expect(info).not.toHaveBeenCalled();
    expect(JSON.parse(deferred.written[1])).toMatchObject({ reqId: 'req-1', rpcId: 1, msg: 'request' });
  });

  it("answers the rest of pino's logger API: flush, silent, bindings, setBindings, levelVal, levels, version, events", () => {
    const { deferred, logger } = pair();
    const child = logger.child({ a: 1 }) as DeferredLogger;
    child.silent();
    expect(child.levelVal).toBe(30);
    child.info('waits');
    let flushed = false;
    child.flush(() => (flushed = true));
    expect(flushed).toBe(true);
    const changes: unknown[] = [];
    logger.on('level-change', (label) => changes.push(label));
    logger.level = 'warn';
    expect(changes).toEqual(['warn']);
    expect(child.bindings()).toEqual({ name: 'srv', a: 1 });
    child.setBindings({ b: 2 });
    child.level = 'info';
    requestLine(child, { rpcId: 9 }, 0.1, 'ok');
    expect(JSON.parse(deferred.written.at(-1)!)).toMatchObject({ a: 1, b: 2, rpcId: 9, msg: 'request' });
    expect(logger.levels.values.info).toBe(30);
    expect(typeof logger.version).toBe('string');
  });

  it('leaves to pino what is not a plain default level or plain bindings, and so answers as pino does', () => {
    const { logger, reference } = pair();
    expect(() => logger.child(null as never)).toThrow(/missing bindings/);
    // Not one of the default levels, though every object has a `constructor`.
    logger.level = reference.level = 'constructor';
    expect(logger.level).toBe(reference.level);
    expect(logger.isLevelEnabled!('info')).toBe(reference.isLevelEnabled('info'));
  });
});
