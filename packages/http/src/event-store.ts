import { Fifo } from './fifo';

/** One stored SSE event. */
export interface StoredEvent {
  id: string;
  /** The message as it was sent (its JSON text, serialised once); null for a priming event. */
  data: string | null;
}

/**
 * Where SSE events wait for a client that lost its connection (resumption with
 * `Last-Event-ID`). Event ids are made by the transport and name their stream
 * (`<stream>_<sequence>`); the store only keeps them, bounded.
 */
export interface EventStore {
  /**
   * Keeps one event. `bytes` is its size as sent (the SSE frame), measured once by the transport,
   * so a store bounded in bytes never serialises again. A store may decline to keep an event
   * (too big for its budget): a resumption then misses it.
   */
  append(sessionId: string, streamId: string, event: StoredEvent, bytes: number): void | Promise<void>;
  /** Events of `streamId` after `lastEventId`, oldest first; undefined when the store does not know that event. */
  after(sessionId: string, streamId: string, lastEventId: string): StoredEvent[] | undefined | Promise<StoredEvent[] | undefined>;
  /** Forgets everything of a session. */
  deleteSession(sessionId: string): void | Promise<void>;
  /**
   * Scale-out only (a store shared by instances, with a router that follows streams): keeps the
   * answer (`data`, its JSON text) that POST stream `streamId` ends with if the instance writing
   * it is gone before answering, so whichever instance follows it can fail the request for the
   * client. Optional: a store without it never has such a stream followed to an error.
   */
  keepFallback?(sessionId: string, streamId: string, data: string): void | Promise<void>;
  /**
   * Scale-out only: POST stream `streamId` ended without an answer: `cancelled` by its client (a
   * follower just ends), or `lost` (the session's copy on its instance closed: a follower gives
   * the fallback answer).
   */
  endStream?(sessionId: string, streamId: string, why: 'cancelled' | 'lost'): void | Promise<void>;
}

/** Budgets of the in-memory event store. */
export interface MemoryEventStoreOptions {
  /** Bytes of events kept per session (default 4 MiB); the session's oldest go first. */
  maxBytesPerSession?: number;
  /** Bytes of events kept over all sessions (default 256 MiB); the process's oldest go first. */
  maxBytes?: number;
  /** Events kept per session whatever their size (default 1 000), as each costs a little more than its bytes. */
  maxEventsPerSession?: number;
}

interface Entry {
  readonly id: string;
  data: string | null;
  readonly bytes: number;
  readonly session: SessionEvents;
  readonly streamId: string;
  /** False once evicted or deleted: the process-wide queue skips it. */
  live: boolean;
}

class SessionEvents {
  readonly streams = new Map<string, Entry[]>();
  /** Every live event of the session, oldest first. */
  readonly order = new Fifo<Entry>();
  bytes = 0;

  constructor(readonly id: string) {}
}

export const DEFAULT_MAX_EVENT_BYTES_PER_SESSION = 4 * 1024 * 1024;
export const DEFAULT_MAX_EVENT_BYTES = 256 * 1024 * 1024;
const DEFAULT_MAX_EVENTS_PER_SESSION = 1_000;

/**
 * The default store: in memory, bounded in bytes per session and per process, and in events per
 * session; the oldest events go first, so a session that never resumes cannot make the process
 * hold more than its budget. An event bigger than the session budget is not kept at all.
 *
 * @example
 * const eventStore = new MemoryEventStore({ maxBytesPerSession: 1 << 20, maxBytes: 64 << 20 });
 * await fastify.register(mcpkit, { app, eventStore });
 */
export class MemoryEventStore implements EventStore {
  private readonly sessions = new Map<string, SessionEvents>();
  // Every event in arrival order, for the process-wide budget; evicted ones stay as tombstones
  // until they reach the front or a compaction drops them.
  private readonly all = new Fifo<Entry>();
  private tombstones = 0;
  private totalBytes = 0;
  private totalEvents = 0;
  readonly maxBytesPerSession: number;
  readonly maxBytes: number;
  readonly maxEventsPerSession: number;

  constructor(options: MemoryEventStoreOptions = {}) {
    this.maxBytesPerSession = positive('maxBytesPerSession', options.maxBytesPerSession ?? DEFAULT_MAX_EVENT_BYTES_PER_SESSION);
    this.maxBytes = positive('maxBytes', options.maxBytes ?? DEFAULT_MAX_EVENT_BYTES);
    this.maxEventsPerSession = positive('maxEventsPerSession', options.maxEventsPerSession ?? DEFAULT_MAX_EVENTS_PER_SESSION);
  }

  /** Events held, over all sessions. */
  get size(): number {
    return this.totalEvents;
  }

  /** Bytes of events held, over all sessions. */
  get bytes(): number {
    return this.totalBytes;
  }

  append(sessionId: string, streamId: string, event: StoredEvent, bytes: number): void {
    // Too big to keep without evicting everything else: sent, not retained.
    if (bytes > this.maxBytesPerSession || bytes > this.maxBytes) return;
    let session = this.sessions.get(sessionId);
    if (!session) this.sessions.set(sessionId, (session = new SessionEvents(sessionId)));
    let events = session.streams.get(streamId);
    if (!events) session.streams.set(streamId, (events = []));
    const entry: Entry = { id: event.id, data: event.data, bytes, session, streamId, live: true };
    events.push(entry);
    session.order.push(entry);
    session.bytes += bytes;
    this.all.push(entry);
    this.totalBytes += bytes;
    this.totalEvents += 1;
    while (session.bytes > this.maxBytesPerSession || session.order.size > this.maxEventsPerSession) this.evict(session.order.peek()!);
    while (this.totalBytes > this.maxBytes) {
      const oldest = this.all.shift()!;
      if (oldest.live) this.evict(oldest);
      else this.tombstones -= 1;
    }
    this.compact();
  }

  after(sessionId: string, streamId: string, lastEventId: string): StoredEvent[] | undefined {
    const events = this.sessions.get(sessionId)?.streams.get(streamId);
    if (!events) return undefined;
    const index = events.findIndex((event) => event.id === lastEventId);
    if (index === -1) return undefined;
    return events.slice(index + 1).map((entry) => ({ id: entry.id, data: entry.data }));
  }

  deleteSession(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    this.sessions.delete(sessionId);
    for (let entry = session.order.shift(); entry !== undefined; entry = session.order.shift()) this.forget(entry);
    session.streams.clear();
    this.compact();
  }

  /** Drops the oldest live event of its session (events of a stream are in the session's order). */
  private evict(entry: Entry): void {
    const session = entry.session;
    session.order.shift();
    const events = session.streams.get(entry.streamId)!;
    events.shift();
    if (events.length === 0) session.streams.delete(entry.streamId);
    this.forget(entry);
    if (session.order.size === 0 && this.sessions.get(session.id) === session) this.sessions.delete(session.id);
  }

  private forget(entry: Entry): void {
    entry.live = false;
    entry.data = null;
    entry.session.bytes -= entry.bytes;
    this.totalBytes -= entry.bytes;
    this.totalEvents -= 1;
    this.tombstones += 1;
  }

  // Tombstones cost a few words each; once they outnumber the live events, rebuild the queue.
  private compact(): void {
    if (this.tombstones < 1_024 || this.tombstones < this.all.size / 2) return;
    this.all.retain((entry) => entry.live);
    this.tombstones = 0;
  }
}

function positive(name: string, value: number): number {
  if (!(Number.isInteger(value) && value > 0)) throw new TypeError(`MemoryEventStore: ${name} must be a positive integer (got ${String(value)})`);
  return value;
}
