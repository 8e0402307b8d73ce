import type { LogLevel } from '@mcpkit/core';
import { SessionRecordTooLargeError, type SessionRecord, type SessionStore } from '@mcpkit/http';
import type { Keys } from './keys';
import type { RedisLink } from './redis-link';
import { DELETE_SESSION, SET_LOG_LEVEL, TOUCH_SESSION } from './scripts';

/**
 * Sessions in Redis, shared by every instance: a HASH per session whose lifetime every use
 * slides (`sessionIdleTtlMs`), in the same round trip as the read. An expired session is gone
 * for good: nothing here writes a record that does not exist, except `set` for a new session.
 */
export class RedisSessionStore implements SessionStore {
  readonly shared = true;

  constructor(
    private readonly link: RedisLink,
    private readonly keys: Keys,
    private readonly ttlMs: number,
    private readonly maxRecordBytes: number,
  ) {}

  async get(id: string): Promise<SessionRecord | undefined> {
    const k = this.keys;
    const raw = await this.link.send([
      'EVAL',
      TOUCH_SESSION,
      '6',
      k.session(id),
      k.subscriptions(id),
      k.subscribedSince(id),
      k.events(id, 'g'),
      k.eventBytes(id, 'g'),
      k.streams(id),
      String(this.ttlMs),
    ]);
    if (!Array.isArray(raw) || typeof raw[0] !== 'string') return undefined;
    const record = JSON.parse(raw[0]) as SessionRecord;
    if (typeof raw[1] === 'string') record.logLevel = raw[1] as LogLevel;
    return record;
  }

  async setLogLevel(id: string, level: LogLevel | undefined): Promise<void> {
    await this.link.send(['EVAL', SET_LOG_LEVEL, '1', this.keys.session(id), level ?? '']);
  }

  async set(record: SessionRecord): Promise<void> {
    const key = this.keys.session(record.id);
    const json = JSON.stringify(record);
    // Read back on every request of the session, on every instance: a client's own info must not make that unbounded.
    if (json.length > this.maxRecordBytes || Buffer.byteLength(json) > this.maxRecordBytes)
      throw new SessionRecordTooLargeError(Buffer.byteLength(json), this.maxRecordBytes);
    await this.link.send([
      'EVAL',
      "redis.call('HSET', KEYS[1], 'r', ARGV[1]); return redis.call('PEXPIRE', KEYS[1], ARGV[2])",
      '1',
      key,
      json,
      String(this.ttlMs),
    ]);
  }

  async delete(id: string): Promise<void> {
    const k = this.keys;
    await this.link.send([
      'EVAL',
      DELETE_SESSION,
      '5',
      k.session(id),
      k.streams(id),
      k.subscriptions(id),
      k.subscribedSince(id),
      k.owner(id),
      `${k.prefix}s:{${id}}:`,
    ]);
  }
}
