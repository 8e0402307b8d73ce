import { ErrorCode } from '@mcpkit/core';
import type { EventStore, StoredEvent } from '@mcpkit/http';
import { answeredIds } from '@mcpkit/http/scale-out';
import type { Keys } from './keys';
import type { RedisLink } from './redis-link';
import { APPEND_EVENT, DELETE_STREAMS, SET_STREAM_META } from './scripts';

/** Bounds of the stored streams. */
export interface EventBounds {
  maxEvents: number;
  maxBytes: number;
  ttlMs: number;
}

/**
 * SSE events in Redis, for resumption on any instance: one STREAM per SSE stream, bounded in
 * events and in bytes (the oldest go first, in the same script as the append), living as long
 * as an idle session.
 *
 * A POST's stream has one writer (the instance answering the POST), so its ids are minted there
 * (`<stream>_<n>`, stream names unique per instance) and written as Redis ids `0-<n>`: no round
 * trip before the event goes out, and Redis still keeps them in order. The session's GET stream
 * has many writers; its ids are minted by Redis (`XADD *`, see the router).
 */
export class RedisEventStore implements EventStore {
  constructor(
    private readonly link: RedisLink,
    private readonly keys: Keys,
    private readonly bounds: EventBounds,
    /** This instance's run (`Keys.run`): stored beside each fallback, where a follower checks the writer lives. */
    private readonly run: string,
  ) {}

  /** Bytes kept per stream; a bigger event is not kept. */
  get maxBytes(): number {
    return this.bounds.maxBytes;
  }

  async append(sessionId: string, streamId: string, event: StoredEvent, bytes: number): Promise<void> {
    const n = sequenceOf(event.id);
    if (n === undefined) return;
    let data = event.data ?? '';
    if (bytes > this.bounds.maxBytes) {
      // Sent, not kept. An answer still has to end the stream for a client that resumes it
      // (a follower would otherwise wait for it as long as its writer lives): an error in its place.
      const substitute = unkeptAnswer(data);
      if (substitute === undefined) return;
      data = substitute;
      bytes = Buffer.byteLength(data) + 40;
    }
    await this.appendRaw(sessionId, streamId, `0-${n}`, data, bytes, false);
  }

  /** Appends to a stream; resolves to the id Redis kept, or undefined when the session is gone (`requireSession`) or the event too big. */
  async appendRaw(sessionId: string, streamId: string, id: string, data: string, bytes: number, requireSession: boolean): Promise<string | undefined> {
    if (bytes > this.bounds.maxBytes) return undefined;
    const k = this.keys;
    const { maxEvents, maxBytes, ttlMs } = this.bounds;
    const kept = await this.link.send([
      'EVAL',
      APPEND_EVENT,
      '4',
      k.events(sessionId, streamId),
      k.eventBytes(sessionId, streamId),
      k.streams(sessionId),
      k.session(sessionId),
      id,
      data,
      String(bytes),
      String(maxEvents),
      String(maxBytes),
      String(ttlMs),
      streamId,
      requireSession ? '1' : '0',
    ]);
    return typeof kept === 'string' ? kept : undefined;
  }

  async after(sessionId: string, streamId: string, lastEventId: string): Promise<StoredEvent[] | undefined> {
    const n = sequenceOf(lastEventId);
    if (n === undefined) return undefined;
    const key = this.keys.events(sessionId, streamId);
    const entries = await this.range(key, `0-${n}`);
    if (entries === undefined) return undefined;
    return entries.map(([id, data]) => ({ id: `${streamId}_${id.slice(2)}`, data: data === '' ? null : data }));
  }

  /**
   * The entries of `key` after `position` (exclusive), oldest first, as [id, data]; undefined
   * when `position` is not an entry the stream holds (trimmed, or never there).
   */
  async range(key: string, position: string): Promise<Array<[string, string]> | undefined> {
    const entries = (await this.link.send(['EVAL', RANGE_AFTER, '1', key, position])) as unknown[] | null;
    if (!Array.isArray(entries)) return undefined;
    return entries.map((entry) => {
      const [id, fields] = entry as [string, string[]];
      let data = '';
      for (let i = 0; i < fields.length; i += 2) if (fields[i] === 'm') data = fields[i + 1];
      return [id, data];
    });
  }

  async keepFallback(sessionId: string, streamId: string, data: string): Promise<void> {
    await this.setMeta(sessionId, streamId, 'f', data, ['w', this.run]);
  }

  async endStream(sessionId: string, streamId: string, why: 'cancelled' | 'lost'): Promise<void> {
    await this.setMeta(sessionId, streamId, 'e', why);
  }

  /** A POST stream's fallback answer, why it ended without an answer (if it did), and the run that writes it (versions before did not say). */
  async meta(sessionId: string, streamId: string): Promise<{ fallback: string | undefined; ended: 'cancelled' | 'lost' | undefined; run: string | undefined }> {
    const [fallback, ended, run] = (await this.link.send(['HMGET', this.keys.eventMeta(sessionId, streamId), 'f', 'e', 'w'])) as Array<string | null>;
    return { fallback: fallback ?? undefined, ended: ended === 'cancelled' || ended === 'lost' ? ended : undefined, run: run ?? undefined };
  }

  private async setMeta(sessionId: string, streamId: string, field: string, value: string, also: [string, string] | [] = []): Promise<void> {
    const k = this.keys;
    await this.link.send([
      'EVAL',
      SET_STREAM_META,
      '3',
      k.eventMeta(sessionId, streamId),
      k.streams(sessionId),
      k.session(sessionId),
      field,
      value,
      String(this.bounds.ttlMs),
      streamId,
      ...also,
    ]);
  }

  async deleteSession(sessionId: string): Promise<void> {
    const k = this.keys;
    await this.link.send(['EVAL', DELETE_STREAMS, '1', k.streams(sessionId), `${k.prefix}s:{${sessionId}}:`]);
  }
}

// Nil when ARGV[1] is not an entry of the stream (never there, or trimmed); '0-0' is the start of
// a stream nothing was delivered from yet.
const RANGE_AFTER = `
if ARGV[1] ~= '0-0' and #redis.call('XRANGE', KEYS[1], ARGV[1], ARGV[1]) == 0 then return false end
return redis.call('XRANGE', KEYS[1], '(' .. ARGV[1], '+')`;

const UNKEPT = { code: ErrorCode.InternalError, message: 'The answer was too big to keep for a resumption (maxEventBytesPerStream); send the request again' };

/**
 * What a resumption gets for an event too big to keep, when that event is the request's answer
 * (a response, or a batch's): a -32603 error for each id it answers; undefined for anything else
 * (a notification or a request is only missed). Parsed only on this rare path.
 */
function unkeptAnswer(data: string): string | undefined {
  const answered = answeredIds(data);
  if (answered === undefined || answered.ids.length === 0) return undefined;
  const errors = answered.ids.map((id) => ({ jsonrpc: '2.0', id, error: UNKEPT }));
  return JSON.stringify(answered.batch ? errors : errors[0]);
}

/**
 * The sequence of a locally minted event id (`<stream>_<n>`): from 1, no leading zero. `_0` is
 * no event (it would read as "before the first" of a stream never there, and `0-01` as `0-1`).
 */
function sequenceOf(eventId: string): string | undefined {
  const underscore = eventId.lastIndexOf('_');
  const tail = eventId.slice(underscore + 1);
  return underscore > 0 && /^[1-9]\d{0,14}$/.test(tail) ? tail : undefined;
}
