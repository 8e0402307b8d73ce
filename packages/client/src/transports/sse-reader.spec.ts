import { SseReader, type SseItem } from './sse-reader';

const bytes = (text: string) => new TextEncoder().encode(text);

/** Feeds `text` cut into pieces of `size` bytes (cuts land inside characters too). */
function read(text: string, size: number, max = 1_000): SseItem[] {
  const reader = new SseReader(max);
  const all = bytes(text);
  const items: SseItem[] = [];
  for (let start = 0; start < all.length; start += size) items.push(...reader.push(all.subarray(start, start + size)));
  return items;
}

describe('SseReader', () => {
  const stream = ': keep-alive\r\nid: 7\nevent: message\ndata: {"a":"é€"}\r\n\r\nretry: 250\ndata: one\ndata: two\n\n';

  it.each([1, 2, 3, 7, 1_000])('reads events, ids, retry and multi-line data from chunks of %i bytes', (size) => {
    expect(read(stream, size)).toEqual([
      { kind: 'event', event: { data: '{"a":"é€"}', id: '7', event: 'message' } },
      { kind: 'retry', ms: 250 },
      { kind: 'event', event: { data: 'one\ntwo', id: '7' } },
    ]);
  });

  it('reads the same events whatever byte a stream of CR, LF and CRLF lines is cut at', () => {
    const mixed = 'data: a\r\rdata: b\n\ndata: c\r\n\r\n: note\rid: 9\r\ndata: d\n\r';
    const all = bytes(mixed);
    const expected = [
      { kind: 'event', event: { data: 'a' } },
      { kind: 'event', event: { data: 'b' } },
      { kind: 'event', event: { data: 'c' } },
      { kind: 'event', event: { data: 'd', id: '9' } },
    ];
    for (let cut = 0; cut <= all.length; cut++) {
      const reader = new SseReader(1_000);
      expect([...reader.push(all.subarray(0, cut)), ...reader.push(all.subarray(cut))]).toEqual(expected);
    }
  });

  it('drops an event whose data grows past the bound, reports it once, and reads the next', () => {
    const items = read(`data: ${'x'.repeat(600)}\ndata: ${'y'.repeat(600)}\n\ndata: ok\n\n`, 64);
    expect(items).toEqual([{ kind: 'oversized' }, { kind: 'event', event: { data: 'ok' } }]);
  });

  it('holds no more than the bound of a line that never ends', () => {
    const reader = new SseReader(100);
    const items: SseItem[] = [];
    for (let i = 0; i < 50; i++) items.push(...reader.push(bytes('z'.repeat(40))));
    expect(items).toEqual([{ kind: 'oversized' }]);
    expect((reader as unknown as { pending: number }).pending).toBeLessThanOrEqual(100);
  });

  it('reads a priming event (an id, empty data) and ignores unknown fields', () => {
    expect(read('id: 1\ndata:\n\nfoo: bar\n\n', 5)).toEqual([{ kind: 'event', event: { data: '', id: '1' } }]);
  });

  it('reports the id of an event without data, so a stream primed that way can be resumed', () => {
    expect(read('id: 4\n\n: ping\n\nevent: x\n\n', 3)).toEqual([{ kind: 'event', event: { data: '', id: '4' } }]);
  });

  it('reads each character of a line that never ends once, not once per chunk', () => {
    const reader = new SseReader(100_000);
    const original = String.prototype.charCodeAt;
    let reads = 0;
    const spy = jest.spyOn(String.prototype, 'charCodeAt').mockImplementation(function (this: string, index: number) {
      // Quadratic work would be some 10^8 reads here: stop it early instead of waiting it out.
      if (++reads > 500_000) throw new Error('too many reads');
      return original.call(this, index);
    });
    const items: SseItem[] = [];
    try {
      for (let i = 0; i < 1_500; i++) items.push(...reader.push(bytes('z'.repeat(100))));
    } finally {
      spy.mockRestore();
    }
    expect(items).toEqual([{ kind: 'oversized' }]);
    expect(reads).toBeLessThanOrEqual(150_000);
  });
});
