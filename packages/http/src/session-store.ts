import type { ClientInfo } from '@mcpkit/core';

/** What a handshake-era session is, apart from the live objects of the instance serving it. */
export interface SessionRecord {
  id: string;
  client: ClientInfo;
  createdAt: number;
  /** Who opened it (issuer and subject of its credential), when the endpoint authenticates: only they may use it (A14). */
  principal?: string;
}

/**
 * Where sessions are remembered. The in-memory default serves one process; a shared store
 * (Redis …) lets any instance serve a session another one created: it rebuilds the session from
 * its record.
 */
export interface SessionStore {
  get(id: string): SessionRecord | undefined | Promise<SessionRecord | undefined>;
  set(record: SessionRecord): void | Promise<void>;
  delete(id: string): void | Promise<void>;
}

/** The default session store: a map in this process. */
export class MemorySessionStore implements SessionStore {
  private readonly records = new Map<string, SessionRecord>();

  /** Sessions held. */
  get size(): number {
    return this.records.size;
  }

  get(id: string): SessionRecord | undefined {
    return this.records.get(id);
  }

  set(record: SessionRecord): void {
    this.records.set(record.id, record);
  }

  delete(id: string): void {
    this.records.delete(id);
  }
}
