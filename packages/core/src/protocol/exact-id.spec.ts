import { ExactNumberId, idKey } from './exact-id';
import { parseMessage } from '../wire/parse-message';

function idOf(text: string): unknown {
  const frame = parseMessage(text);
  if (!frame.ok) throw new Error('did not parse');
  return (frame.message as { id: unknown }).id;
}

describe('exact ids', () => {
  it('keeps safe integers and strings as they are', () => {
    expect(idOf('{"jsonrpc":"2.0","id":42,"method":"ping"}')).toBe(42);
    expect(idOf('{"jsonrpc":"2.0","id":"9223372036854775807","method":"ping"}')).toBe('9223372036854775807');
  });

  it.each([['9223372036854775807'], ['123456789012345678901234567890'], ['-9007199254740993'], ['1e400'], ['12345678901234567.5']])(
    'keeps the digits of %s',
    (digits) => {
      const id = idOf(`{"jsonrpc":"2.0","id":${digits},"method":"ping"}`);
      expect(id).toBeInstanceOf(ExactNumberId);
      expect((id as ExactNumberId).digits).toBe(digits);
      expect(idKey(id as ExactNumberId)).toBe(`\u0000#${digits}`);
    },
  );

  it('reads the top-level id, not one nested in params or inside a string', () => {
    const text = '{"params":{"id":1,"s":"\\"id\\":5, {[","arr":[{"id":2}]},"method":"ping","jsonrpc":"2.0" , "id" : 9223372036854775807 }';
    expect((idOf(text) as ExactNumberId).digits).toBe('9223372036854775807');
  });

  it('keeps the requestId a cancellation names, and tells neighbouring big ids apart', () => {
    const frame = parseMessage('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"x","requestId":9223372036854775806}}');
    const requestId = (frame as { message: { params: { requestId: ExactNumberId } } }).message.params.requestId;
    expect(requestId.digits).toBe('9223372036854775806');
    expect(idKey(requestId)).not.toBe(idKey(new ExactNumberId('9223372036854775807')));
  });

  it('takes the last of duplicate ids, as JSON.parse does', () => {
    expect((idOf('{"id":1,"id":9223372036854775807}') as ExactNumberId).digits).toBe('9223372036854775807');
    expect(idOf('{"id":9223372036854775807,"id":2}')).toBe(2);
  });

  it('restores each element of a batch', () => {
    const frame = parseMessage('[ {"id":9223372036854775807}, 5, {"id":3}, {"x":[[]],"id":-123456789012345678901} ]');
    expect(frame.ok).toBe(true);
    const batch = (frame as { message: Array<{ id?: unknown }> }).message;
    expect((batch[0].id as ExactNumberId).digits).toBe('9223372036854775807');
    expect(batch[2].id).toBe(3);
    expect((batch[3].id as ExactNumberId).digits).toBe('-123456789012345678901');
  });

  it('scans a deeply nested value without overflowing the stack', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    expect((idOf(`{"params":${deep},"id":9223372036854775807}`) as ExactNumberId).digits).toBe('9223372036854775807');
  });
});
