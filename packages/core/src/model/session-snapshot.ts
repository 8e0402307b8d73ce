import type { LogLevel } from '../logging/log-levels';
import type { RequestId } from '../protocol/json-rpc';
import type { ClientInfo } from './client-info';

/** An open modern-era `subscriptions/listen` request: its id and its params as the client sent them. */
export interface ListenSnapshot {
  id: RequestId;
  params: Record<string, unknown>;
}

/**
 * What a connection keeps of its client, as plain JSON: enough for a fresh connection (in a
 * fresh process) to continue the session where the old one stopped. Made by
 * `connection.snapshot()`, taken by `app.connect(transport, { restore })`.
 *
 * @example
 * const snapshot = connection.snapshot(); // JSON.stringify it, hand it to the next process
 * const next = app.connect({ kind: 'stdio' }, { restore: snapshot, announceListChanges: true });
 */
export interface SessionSnapshot {
  /** The client `initialize` negotiated (legacy era); absent before the handshake. */
  client?: ClientInfo;
  /** The client's log threshold (`logging/setLevel`). */
  logLevel?: LogLevel;
  /** The resource URIs the client subscribed to (`resources/subscribe`). */
  subscriptions?: string[];
  /** The open modern-era `subscriptions/listen` requests: re-opened without a second acknowledgement. */
  listens?: ListenSnapshot[];
  /** The client was told `listChanged: true` for the lists the app serves (`announceListChanges`). */
  announceListChanges?: boolean;
}

/** What a connection keeps of an open listen: its params (for snapshots) and how to tell it the lists changed. */
export interface OpenListen {
  readonly params: Readonly<Record<string, unknown>>;
  /** Sends the tagged `list_changed` for every list the listen's filter honoured. */
  announce(): void;
}

/**
 * What to keep of a client to continue its session elsewhere: the negotiated client, its log
 * level and subscriptions (`session`: its legacy session once past `initialize`), the open listens,
 * whether list changes are announced; undefined when there is nothing to keep.
 */
export function sessionSnapshot(
  session: { readonly clientInfo: ClientInfo; readonly logLevel: LogLevel | undefined; readonly subscribedUris: string[] } | undefined,
  listens: ListenSnapshot[],
  announcing: boolean,
): SessionSnapshot | undefined {
  const snapshot: SessionSnapshot = {};
  if (session !== undefined) {
    snapshot.client = session.clientInfo;
    if (session.logLevel !== undefined) snapshot.logLevel = session.logLevel;
    const subscriptions = session.subscribedUris;
    if (subscriptions.length > 0) snapshot.subscriptions = subscriptions;
  }
  if (listens.length > 0) snapshot.listens = listens;
  if (snapshot.client === undefined && snapshot.listens === undefined) return undefined;
  if (announcing) snapshot.announceListChanges = true;
  return snapshot;
}
