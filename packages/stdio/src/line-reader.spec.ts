import { LineReader, type LineEvent } from './line-reader';

function feed(reader: LineReader, chunks: Array<string | Buffer>): LineEvent[] {
  const events: LineEvent[] = [];
  for (const chunk of chunks) reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk, (event) => events.push(event));
  return events;
}

describe('LineReader', () => {
  it('splits lines and drops CR and blank lines', () => {
    expect(feed(new LineReader(100), ['a\nb\r\n\n  \nc\n'])).toEqual([
      { kind: 'line', text: 'a' },
      { kind: 'line', text: 'b' },
      { kind: 'line', text: 'c' },
    ]);
  });

  it('joins a line split anywhere, even inside a multi-byte character', () => {
    const bytes = Buffer.from('ünï✓\n');
    const chunks = [...bytes].map((byte) => Buffer.from([byte]));
    expect(feed(new LineReader(100), chunks)).toEqual([{ kind: 'line', text: 'ünï✓' }]);
  });

  it('reports an oversized line once, discards it up to its newline and goes on', () => {
    const reader = new LineReader(5);
    expect(feed(reader, ['abc', 'defgh', 'ijk\nok\n'])).toEqual([{ kind: 'oversized' }, { kind: 'line', text: 'ok' }]);
  });

  it('accepts a line of exactly the limit', () => {
    expect(feed(new LineReader(5), ['12345\n'])).toEqual([{ kind: 'line', text: '12345' }]);
  });

  it('flushes a last line without newline at end of input', () => {
    const reader = new LineReader(100);
    const events = feed(reader, ['tail']);
    reader.end((event) => events.push(event));
    expect(events).toEqual([{ kind: 'line', text: 'tail' }]);
  });
});
