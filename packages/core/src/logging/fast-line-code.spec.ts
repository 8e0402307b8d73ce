import pino from 'pino';
import { markFastLines } from './fast-destination';
import { requestLine } from './fast-line';
import { LogDestination } from './log-destination';

class Captured extends LogDestination {
  readonly written: string[] = [];
  override write(line: string): boolean {
    this.written.push(line);
    return true;
  }
}

describe('requestLine', () => {
  describe('with an error code and a caller (the audit line)', () => {
    it('writes what pino writes', () => {
      const fast = new Captured();
      const slow = new Captured();
      const fastLogger = pino({ name: 'srv' }, fast);
      markFastLines(fastLogger, fast);
      const fields = { rpcId: 7, method: 'tools/call', target: 'delete_note', subject: 'user-1', clientId: 'cli' };
      requestLine(fastLogger.child({ transport: 'http' }), fields, 0.5, 'denied', -31001);
      pino({ name: 'srv' }, slow)
        .child({ transport: 'http' })
        .info({ ...fields, ms: 0.5, outcome: 'denied', code: -31001 }, 'request');
      expect(fast.written[0].replace(/"time":\d+/, '')).toBe(slow.written[0].replace(/"time":\d+/, ''));
    });

    it('passes the code to a logger it does not know', () => {
      const other = { info: jest.fn() } as never;
      requestLine(other, { rpcId: 1 }, 2, 'invalid', -32602);
      expect((other as { info: jest.Mock }).info).toHaveBeenCalledWith({ rpcId: 1, ms: 2, outcome: 'invalid', code: -32602 }, 'request');
    });
  });
});
