import { encodeMessage, fitAnswer, type EncodeLimits } from './encode-message';
import { ExactNumberId } from '../protocol/exact-id';
import type { JsonRpcMessage } from '../protocol/json-rpc';
import type { Logger } from '../logging/logger';

const LIMITS: EncodeLimits = { maxMessageBytes: 1_000, maxBatchBytes: 2_000 };

describe('encodeMessage', () => {
  it('serialises an ordinary message as JSON.stringify does', () => {
    const message: JsonRpcMessage = { jsonrpc: '2.0', id: 1, result: { ok: true } };
    expect(encodeMessage(message, LIMITS)).toBe(JSON.stringify(message));
  });

  it('writes an exact id with the client digits, unquoted', () => {
    const text = encodeMessage({ jsonrpc: '2.0', id: new ExactNumberId('9223372036854775807'), result: {} }, LIMITS)!;
    expect(text).toBe('{"id":9223372036854775807,"jsonrpc":"2.0","result":{}}');
  });

  it('answers -32603 for a response over the bound, keeping its id', () => {
    const text = encodeMessage({ jsonrpc: '2.0', id: 7, result: { big: 'x'.repeat(2_000) } }, LIMITS)!;
    expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32603, message: expect.stringContaining('1000 bytes') } });
  });

  it('counts bytes, not characters', () => {
    const text = encodeMessage({ jsonrpc: '2.0', id: 7, result: { big: 'é'.repeat(600) } }, LIMITS)!;
    expect(JSON.parse(text).error.code).toBe(-32603);
  });

  it('answers -32603 for a result that cannot be serialised', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(JSON.parse(encodeMessage({ jsonrpc: '2.0', id: 'a', result: cyclic }, LIMITS)!)).toMatchObject({ id: 'a', error: { code: -32603 } });
    expect(JSON.parse(encodeMessage({ jsonrpc: '2.0', id: 'b', result: { n: 10n } as never }, LIMITS)!)).toMatchObject({ id: 'b', error: { code: -32603 } });
  });

  it('drops a notification that cannot go out, and says so', () => {
    const error = jest.fn();
    const logger = { error } as never;
    expect(encodeMessage({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'x'.repeat(5_000) } }, LIMITS, logger)).toBeUndefined();
    expect(error).toHaveBeenCalledTimes(1);
  });

  it('answers the elements of a batch past its byte bound with -32603, each id once', () => {
    const batch: JsonRpcMessage[] = Array.from({ length: 10 }, (_, id) => ({ jsonrpc: '2.0', id, result: { text: 'y'.repeat(500) } }));
    const answers = JSON.parse(encodeMessage(batch, LIMITS)!) as Array<{ id: number; result?: unknown; error?: { code: number } }>;
    expect(answers.map((answer) => answer.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(answers.filter((answer) => answer.result).length).toBe(3);
    expect(answers.slice(3).every((answer) => answer.error?.code === -32603)).toBe(true);
  });
});

describe('fitAnswer', () => {
  const limits = { maxMessageBytes: 100, maxBatchBytes: 1_000 };

  it('keeps an answer that fits, and encodeMessage writes the text it made without serialising again', () => {
    const answer = { jsonrpc: '2.0' as const, id: 1, result: { value: 'a' } };
    expect(fitAnswer(answer, 100)).toBe(answer);
    const spy = jest.spyOn(JSON, 'stringify');
    try {
      expect(encodeMessage(answer, limits)).toBe('{"jsonrpc":"2.0","id":1,"result":{"value":"a"}}');
      expect(encodeMessage([answer], limits)).toBe('[{"jsonrpc":"2.0","id":1,"result":{"value":"a"}}]');
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('asks for no logger when the answer fits (a request makes its logger on first use)', () => {
    const logger = jest.fn(() => ({ error: jest.fn() }) as unknown as Logger);
    fitAnswer({ jsonrpc: '2.0', id: 5, result: { value: 'a' } }, 100, logger);
    expect(logger).not.toHaveBeenCalled();
    fitAnswer({ jsonrpc: '2.0', id: 6, result: { value: 'x'.repeat(200) } }, 100, logger);
    expect(logger).toHaveBeenCalledTimes(1);
  });

  it('serialises a copy of a fitted answer afresh (the kept text belongs to the original)', () => {
    const answer = { jsonrpc: '2.0' as const, id: 3, result: { value: 'a' } };
    fitAnswer(answer, 100);
    expect(encodeMessage({ ...answer, id: 4 }, limits)).toBe('{"jsonrpc":"2.0","id":4,"result":{"value":"a"}}');
    expect(Object.keys(answer)).toEqual(['jsonrpc', 'id', 'result']);
  });

  it('gives the -32603 error that replaces an oversize or unserialisable answer, and logs the drop once', () => {
    const errors: unknown[] = [];
    const logger = { error: (...args: unknown[]) => void errors.push(args) } as unknown as Logger;
    expect(fitAnswer({ jsonrpc: '2.0', id: 7, result: { value: 'x'.repeat(200) } }, 100, () => logger)).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32603, message: 'The response would exceed 100 bytes' },
    });
    expect(fitAnswer({ jsonrpc: '2.0', id: 8, result: { big: BigInt(1) } }, 100, () => logger)).toEqual({
      jsonrpc: '2.0',
      id: 8,
      error: { code: -32603, message: 'The response could not be serialised' },
    });
    expect(errors).toHaveLength(2);
  });

  it('still holds a kept text to a smaller bound of the transport', () => {
    const answer = { jsonrpc: '2.0' as const, id: 2, result: { value: 'x'.repeat(80) } };
    expect(fitAnswer(answer, 1_000)).toBe(answer);
    expect(JSON.parse(encodeMessage(answer, limits)!)).toMatchObject({ id: 2, error: { code: -32603 } });
  });
});
