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

  it('drops an event whose data grows past the bound, reports it once, and reads the next', () => {
    const items = read(`data: ${'x'.repeat(600)}\ndata: ${'y'.repeat(600)}\n\ndata: ok\n\n`, 64);
    expect(items).toEqual([{ kind: 'oversized' }, { kind: 'event', event: { data: 'ok' } }]);
  });

  it('holds no more than the bound of a line that never ends', () => {
    const reader = new SseReader(100);
    const items: SseItem[] = [];
    for (let i = 0; i < 50; i++) items.push(...reader.push(bytes('z'.repeat(40))));
    expect(items).toEqual([{ kind: 'oversized' }]);
    expect((reader as unknown as { buffer: string }).buffer.length).toBeLessThanOrEqual(100);
  });

  it('reads a priming event (an id, empty data) and ignores unknown fields', () => {
    expect(read('id: 1\ndata:\n\nfoo: bar\n\n', 5)).toEqual([{ kind: 'event', event: { data: '', id: '1' } }]);
  });

  it('reports the id of an event without data, so a stream primed that way can be resumed', () => {
    expect(read('id: 4\n\n: ping\n\nevent: x\n\n', 3)).toEqual([{ kind: 'event', event: { data: '', id: '4' } }]);
  });
});
