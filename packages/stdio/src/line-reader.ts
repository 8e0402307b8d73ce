/** What the reader found: a complete line, or a line that exceeded the size limit. */
export type LineEvent = { kind: 'line'; text: string } | { kind: 'oversized' };

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Splits a byte stream into newline-delimited UTF-8 lines. Chunks may split anywhere, even inside
 * a multi-byte character; CRLF is accepted. A line longer than `maxBytes` is discarded up to its
 * newline and reported once, so a huge or endless line never holds more than `maxBytes` in memory.
 */
export class LineReader {
  private parts: Buffer[] = [];
  private size = 0;
  private discarding = false;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer, emit: (event: LineEvent) => void): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      if (!this.discarding && end > start) {
        if (this.size + (end - start) > this.maxBytes) {
          this.discarding = true;
          this.parts = [];
          this.size = 0;
        } else {
          this.parts.push(chunk.subarray(start, end));
          this.size += end - start;
        }
      }
      if (newline === -1) return;
      if (this.discarding) {
        this.discarding = false;
        emit({ kind: 'oversized' });
      } else {
        const line = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.size);
        this.parts = [];
        this.size = 0;
        const length = line.length > 0 && line[line.length - 1] === CARRIAGE_RETURN ? line.length - 1 : line.length;
        const text = line.toString('utf8', 0, length);
        if (text.trim() !== '') emit({ kind: 'line', text });
      }
      start = newline + 1;
    }
  }

  /** At end of input: a final line without a newline still counts. */
  end(emit: (event: LineEvent) => void): void {
    if (this.discarding) emit({ kind: 'oversized' });
    else if (this.size > 0) this.push(Buffer.from('\n'), emit);
    this.parts = [];
    this.size = 0;
    this.discarding = false;
  }
}
