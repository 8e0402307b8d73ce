import type { ClientInfo, LogLevel } from '@mcpkit/core';

/** What a legacy-era session is, apart from the live objects of the instance serving it. */
export interface SessionRecord {
  id: string;
  client: ClientInfo;
  createdAt: number;
  /** Who opened it (issuer and subject of its credential), when the endpoint authenticates: only they may use it (A14). */
  principal?: string;
  /** The client's log level (`logging/setLevel`), kept by a shared store so every instance honours it. */
  logLevel?: LogLevel;
}

/**
 * Where sessions are remembered. The in-memory default serves one process; a shared store
 * (Redis …) lets any instance serve a session another one created: it rebuilds the session from
 * its record.
 *
 * A store whose records expire (a shared one does: its instances cannot sweep each other's
 * sessions) counts every `get` as a use and slides the record's lifetime, in the same round
 * trip; an expired record is gone for good: nothing may bring it back.
 */
export interface SessionStore {
  /** The record, or undefined when the session ended or expired; a store with expiry slides it. */
  get(id: string): SessionRecord | undefined | Promise<SessionRecord | undefined>;
  /** Keeps a new session's record; may throw `SessionRecordTooLargeError` for one bigger than it keeps. */
  set(record: SessionRecord): void | Promise<void>;
  delete(id: string): void | Promise<void>;
  /**
   * True when other instances use the same records. The endpoint then reads the record on every
   * request (a session deleted or expired through another instance ends here too, and each use
   * slides its lifetime), and this instance's idle expiry, session cap and shutdown only drop
   * its own copy of a session, never the shared record. Default false.
   */
  readonly shared?: boolean;
  /** Keeps a session's new log level (a shared store; never re-creates an expired record). */
  setLogLevel?(id: string, level: LogLevel | undefined): void | Promise<void>;
}

/**
 * What a store's `set` throws for a record bigger than it keeps (a shared store re-reads the
 * record on every request, so it bounds it): the `initialize` that would make it fails with
 * -32602 and no session is made.
 *
 * @example
 * if (Buffer.byteLength(json) > maxBytes) throw new SessionRecordTooLargeError(Buffer.byteLength(json), maxBytes);
 */
export class SessionRecordTooLargeError extends Error {
  constructor(
    readonly bytes: number,
    readonly maxBytes: number,
  ) {
    super(`session record of ${bytes} bytes exceeds the store's limit of ${maxBytes}`);
    this.name = 'SessionRecordTooLargeError';
  }
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
