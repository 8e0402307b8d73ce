import { DefinitionError } from '../../errors/definition-error';
import { McpError } from '../../errors/mcp-error';
import { RequestStateCodec } from './input-required';

function nested(depth: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
}

function codeOf(run: () => unknown): { code: number; message: string } | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (!McpError.isMcpError(error)) throw error;
    return { code: error.code, message: error.message };
  }
}

describe('RequestStateCodec', () => {
  const codec = new RequestStateCodec('secret');
  const args = { topic: 't', unknown_extra: 1 };

  describe('answersOf', () => {
    it('merges the verified state with the new responses, and names its exchange', () => {
      const state = codec.sign('tools/call', 'draft_note', args, { draft: { action: 'accept' } });
      const retry = codec.answersOf(
        { arguments: { ...args }, requestState: state, inputResponses: { confirm: { action: 'decline' } } },
        'tools/call',
        'draft_note',
      );
      expect(retry).toEqual({ answers: { draft: { action: 'accept' }, confirm: { action: 'decline' } }, exchange: expect.stringMatching(/^[\w-]{22}$/) });
      // The next round's state belongs to the same exchange; a first round starts another.
      const next = codec.sign('tools/call', 'draft_note', args, retry.answers, undefined, retry.exchange);
      expect(codec.answersOf({ arguments: { ...args }, requestState: next }, 'tools/call', 'draft_note').exchange).toBe(retry.exchange);
      expect(
        codec.answersOf({ arguments: { ...args }, requestState: codec.sign('tools/call', 'draft_note', args, {}) }, 'tools/call', 'draft_note').exchange,
      ).not.toBe(retry.exchange);
      expect(codec.answersOf({ inputResponses: { a: 1 } }, 'tools/call', 'x')).toEqual({ answers: { a: 1 }, exchange: undefined });
    });

    it('refuses a state for other arguments', () => {
      const state = codec.sign('tools/call', 'draft_note', args, {});
      expect(codeOf(() => codec.answersOf({ arguments: { topic: 't' }, requestState: state }, 'tools/call', 'draft_note'))).toMatchObject({
        code: -32602,
        message: expect.stringContaining('Invalid requestState'),
      });
    });

    it('protects its integrity: an altered state, one signed with another key, an expired one and one for another tool are refused (A16)', () => {
      const state = codec.sign('tools/call', 'draft_note', args, { draft: { action: 'accept' } });
      const [body, mac] = state.split('.');
      const altered = Buffer.from(Buffer.from(body, 'base64url').toString().replace('accept', 'decline')).toString('base64url');
      const refused = (requestState: string, target = 'draft_note') =>
        codeOf(() => codec.answersOf({ arguments: { ...args }, requestState }, 'tools/call', target));
      expect(refused(`${altered}.${mac}`)).toMatchObject({ code: -32602, message: expect.stringContaining('Invalid requestState') });
      expect(refused(new RequestStateCodec('another secret').sign('tools/call', 'draft_note', args, {}))).toMatchObject({ code: -32602 });
      expect(refused(state, 'delete_note')).toMatchObject({ code: -32602 });
      expect(refused('no-mac-at-all')).toMatchObject({ code: -32602 });
      const now = Date.now();
      const clock = jest.spyOn(Date, 'now');
      try {
        clock.mockReturnValue(now);
        const shortLived = codec.sign('tools/call', 'draft_note', args, {});
        clock.mockReturnValue(now + 24 * 60 * 60 * 1000);
        expect(refused(shortLived)).toMatchObject({ code: -32602 });
      } finally {
        clock.mockRestore();
      }
      expect(refused(state)).toBeUndefined();
    });

    it('refuses inputResponses nested 20 000 deep before any recursion, with -32602', () => {
      expect(codeOf(() => codec.answersOf({ inputResponses: { a: nested(20_000) } }, 'tools/call', 'x'))).toEqual({
        code: -32602,
        message: 'inputResponses nest deeper than 64 levels in one answer (maxInputDepth)',
      });
      expect(codeOf(() => codec.answersOf({ inputResponses: { a: nested(64) } }, 'tools/call', 'x'))).toBeUndefined();
    });

    it('refuses oversized inputResponses and requestState', () => {
      expect(codeOf(() => codec.answersOf({ inputResponses: { a: 'x'.repeat(200_000) } }, 'tools/call', 'x'))).toMatchObject({
        code: -32602,
        message: expect.stringContaining('maxInputResponsesBytes'),
      });
      expect(codeOf(() => codec.answersOf({ requestState: 'x'.repeat(300_000) }, 'tools/call', 'x'))).toMatchObject({
        code: -32602,
        message: expect.stringContaining('maxRequestStateBytes'),
      });
      expect(codeOf(() => codec.answersOf({ inputResponses: [1] }, 'tools/call', 'x'))).toMatchObject({ code: -32602 });
      expect(codeOf(() => codec.answersOf({ requestState: 7 }, 'tools/call', 'x'))).toMatchObject({ code: -32602 });
    });

    it('takes its limits from options', () => {
      const tight = new RequestStateCodec('s', { maxInputDepth: 2, maxInputResponsesBytes: 100, maxRequestStateBytes: 10 });
      expect(codeOf(() => tight.answersOf({ inputResponses: { a: [[1]] } }, 'tools/call', 'x'))).toBeUndefined();
      expect(codeOf(() => tight.answersOf({ inputResponses: { a: [[[1]]] } }, 'tools/call', 'x'))).toMatchObject({
        message: expect.stringContaining('deeper than 2 levels'),
      });
      expect(codeOf(() => tight.answersOf({ requestState: 'x'.repeat(11) }, 'tools/call', 'x'))).toMatchObject({
        message: expect.stringContaining('exceeds 10 characters'),
      });
      expect(() => new RequestStateCodec('s', { maxInputDepth: 0 })).toThrow(DefinitionError);
    });
  });

  describe('sign', () => {
    it('answers arguments too deep to digest with -32602, not a RangeError', () => {
      expect(codeOf(() => codec.sign('tools/call', 'x', { a: nested(20_000) }, {}))).toMatchObject({
        code: -32602,
        message: expect.stringContaining('nest too deeply'),
      });
    });
  });
});
