import type { JsonRpcMessage } from '@mcpkit/core';

/** One stored SSE event; `message` is null for a priming event. */
export interface StoredEvent {
  id: string;
  message: JsonRpcMessage | JsonRpcMessage[] | null;
}

/**
 * Where SSE events wait for a client that lost its connection (resumption with
 * `Last-Event-ID`). Event ids are made by the transport and name their stream
 * (`<stream>_<sequence>`); the store only keeps them, bounded.
 */
export interface EventStore {
  append(sessionId: string, streamId: string, event: StoredEvent): void | Promise<void>;
  /** Events of `streamId` after `lastEventId`, oldest first; undefined when the store does not know that event. */
  after(sessionId: string, streamId: string, lastEventId: string): StoredEvent[] | undefined | Promise<StoredEvent[] | undefined>;
  /** Forgets everything of a session. */
  deleteSession(sessionId: string): void | Promise<void>;
}

/**
 * The default store: in memory, at most `maxEventsPerSession` events per session (the oldest
 * go first), so a session that never resumes cannot grow without bound.
 */
export class MemoryEventStore implements EventStore {
  private readonly sessions = new Map<string, Map<string, StoredEvent[]>>();
  private readonly counts = new Map<string, number>();

  constructor(readonly maxEventsPerSession = 1_000) {}

  /** Events held, over all sessions. */
  get size(): number {
    let total = 0;
    for (const count of this.counts.values()) total += count;
    return total;
  }

  append(sessionId: string, streamId: string, event: StoredEvent): void {
    let streams = this.sessions.get(sessionId);
    if (!streams) this.sessions.set(sessionId, (streams = new Map()));
    let events = streams.get(streamId);
    if (!events) streams.set(streamId, (events = []));
    events.push(event);
    const count = (this.counts.get(sessionId) ?? 0) + 1;
    this.counts.set(sessionId, count);
    if (count > this.maxEventsPerSession) this.dropOldest(streams, sessionId);
  }

  after(sessionId: string, streamId: string, lastEventId: string): StoredEvent[] | undefined {
    const events = this.sessions.get(sessionId)?.get(streamId);
    if (!events) return undefined;
    const index = events.findIndex((event) => event.id === lastEventId);
    if (index === -1) return undefined;
    return events.slice(index + 1);
  }

  deleteSession(sessionId: string): void {
    this.sessions.delete(sessionId);
    this.counts.delete(sessionId);
  }

  private dropOldest(streams: Map<string, StoredEvent[]>, sessionId: string): void {
    // Streams are kept in creation order, so the first non-empty one holds the oldest event.
    for (const [streamId, events] of streams) {
      events.shift();
      if (events.length === 0) streams.delete(streamId);
      this.counts.set(sessionId, this.maxEventsPerSession);
      return;
    }
  }
}
