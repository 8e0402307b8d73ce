/** One server-sent event: its data (lines joined), its id and event name if it had them. */
export interface SseEvent {
  data: string;
  id?: string;
  event?: string;
}

/** What the reader found: an event, a `retry:` delay, or an event past the bound (dropped). */
export type SseItem = { kind: 'event'; event: SseEvent } | { kind: 'retry'; ms: number } | { kind: 'oversized' };

/**
 * Reads a `text/event-stream` incrementally (chunks may split anywhere, even inside a UTF-8
 * character). An event whose data grows past `maxBytes` is dropped as it arrives and reported
 * once: an endless event never holds more than `maxBytes`, nor does an endless line.
 */
export class SseReader {
  private readonly decoder = new TextDecoder('utf-8');
  /** The line read so far, in pieces: joined once its end comes, so each character is scanned once. */
  private pieces: string[] = [];
  private pending = 0;
  /** The last chunk ended with CR: an LF starting the next one belongs to it. */
  private skipLf = false;
  private data: string[] = [];
  private size = 0;
  private id: string | undefined;
  private event: string | undefined;
  /** An `id:` line came in this event: even without data, it is what a resumption starts after. */
  private idSeen = false;
  private dropping = false;

  constructor(private readonly maxBytes: number) {}

  /** Reads one chunk and returns the complete items in it. */
  push(chunk: Uint8Array): SseItem[] {
    const text = this.decoder.decode(chunk, { stream: true });
    const items: SseItem[] = [];
    let start = this.skipLf && text.charCodeAt(0) === 0x0a ? 1 : 0;
    if (text !== '') this.skipLf = false;
    for (let index = start; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code !== 0x0a && code !== 0x0d) continue;
      this.pieces.push(text.slice(start, index));
      const line = this.pieces.join('');
      this.pieces = [];
      this.pending = 0;
      this.line(line, items);
      if (code === 0x0d && index + 1 === text.length) this.skipLf = true;
      else if (code === 0x0d && text.charCodeAt(index + 1) === 0x0a) index++;
      start = index + 1;
    }
    if (start < text.length) {
      this.pieces.push(text.slice(start));
      this.pending += text.length - start;
    }
    // A line with no end yet counts against the bound too.
    if (this.pending > this.maxBytes) {
      this.pieces = [];
      this.pending = 0;
      this.drop(items);
    }
    return items;
  }

  private line(line: string, items: SseItem[]): void {
    if (line === '') {
      this.dispatch(items);
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      if (this.dropping) return;
      this.size += value.length + 1;
      if (this.size > this.maxBytes) this.drop(items);
      else this.data.push(value);
    } else if (field === 'id' && !value.includes('\0')) {
      this.id = value;
      this.idSeen = true;
    } else if (field === 'event') this.event = value;
    else if (field === 'retry' && /^\d+$/.test(value)) items.push({ kind: 'retry', ms: Number(value) });
  }

  private dispatch(items: SseItem[]): void {
    const dropped = this.dropping;
    const data = this.data;
    this.data = [];
    this.size = 0;
    this.dropping = false;
    const event = this.event;
    this.event = undefined;
    const idSeen = this.idSeen;
    this.idSeen = false;
    if (dropped) return;
    if (data.length === 0) {
      if (idSeen) items.push({ kind: 'event', event: { data: '', id: this.id! } });
      return;
    }
    items.push({
      kind: 'event',
      event: { data: data.join('\n'), ...(this.id === undefined ? {} : { id: this.id }), ...(event === undefined ? {} : { event }) },
    });
  }

  private drop(items: SseItem[]): void {
    if (!this.dropping) items.push({ kind: 'oversized' });
    this.dropping = true;
    this.data = [];
    this.size = 0;
  }
}
