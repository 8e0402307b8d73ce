import pino from 'pino';
import { logAbandoned } from './log-abandoned';

function capture(): { logger: pino.Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  return { logger: pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) }), lines };
}

const requests = (count: number) => Array.from({ length: count }, (_, id) => ({ id, method: 'tools/call', cancelled: id % 2 === 0 }));

describe('logAbandoned', () => {
  it('logs one warn line per abandoned request, with its id and method', () => {
    const { logger, lines } = capture();
    logAbandoned(logger, [{ id: 'a', method: 'prompts/get', cancelled: false }, ...requests(1)]);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        rpcId: 'a',
        method: 'prompts/get',
        cancelled: false,
        msg: 'request abandoned at shutdown: its handler had not returned',
      }),
      expect.objectContaining({ level: 40, rpcId: 0, method: 'tools/call', cancelled: true }),
    ]);
  });

  it('stops at the cap and says how many more', () => {
    const { logger, lines } = capture();
    logAbandoned(logger, requests(100_000));
    expect(lines).toHaveLength(21);
    expect(lines[19]).toMatchObject({ rpcId: 19 });
    expect(lines[20]).toMatchObject({ level: 40, more: 99_980, abandoned: 100_000, msg: '99980 more requests abandoned at shutdown' });
  });

  it('logs nothing when nothing was abandoned', () => {
    const { logger, lines } = capture();
    logAbandoned(logger, []);
    expect(lines).toEqual([]);
  });
});
