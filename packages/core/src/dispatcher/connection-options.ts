import type { Logger } from '../logging/logger';
import type { LogLevel } from '../logging/log-levels';
import type { JsonRpcMessage } from '../protocol/json-rpc';
import type { SessionSnapshot } from '../model/session-snapshot';

/** How a transport opens a connection. */
export interface ConnectionOptions {
  /** The transport's session id (HTTP `Mcp-Session-Id`). */
  sessionId?: string;
  /** A logger to use instead of the app's (stdio replaces one that writes to stdout). */
  logger?: Logger;
  /**
   * Continue a session from `connection.snapshot()` (another process, another instance): past
   * the handshake, same log level and subscriptions, its listens re-opened once an outbound
   * channel is set, without a second acknowledgement.
   */
  restore?: SessionSnapshot;
  /**
   * Declare `listChanged: true` for every list the app serves (in `initialize`, `server/discover`
   * and the filters listens honour), so `announceListChanges()` may tell the client its lists
   * changed: for a server that is replaced under its client (`mcpkit dev`). Default false; a
   * restored session that was announcing keeps announcing.
   */
  announceListChanges?: boolean;
  /**
   * No session will follow (stateless HTTP): capabilities that need one (a stored log level,
   * subscriptions, list-change notifications, server-to-client requests) are unavailable.
   */
  sessionless?: boolean;
  /**
   * Ids of requests sent to the client start with this (default `mcpkit-`). Instances that
   * serve one session between them (scale-out) each give their own, so ids never collide and an
   * answer names the instance that waits for it.
   */
  outboundIdPrefix?: string;
  /**
   * Relay app events (list changes, resource updates) to the client (default true). False when
   * the transport relays them itself: with scale-out only the instance holding the session's
   * stream does, whichever instance this connection is on.
   */
  appEvents?: boolean;
  /** Told of each `resources/subscribe` (true) and `resources/unsubscribe` (false), for a store that shares them. */
  onSubscription?: (uri: string, on: boolean) => void | Promise<void>;
  /**
   * Told when the client's log level changes (`logging/setLevel`), for a store that shares it.
   * A promise holds the answer back until it settles, so the client's next request, on any
   * instance, sees the new level.
   */
  onLogLevel?: (level: LogLevel | undefined) => void | Promise<void>;
  /**
   * Given each client message this connection cannot place: a response to no request it sent,
   * a cancellation of a request it does not run, progress on a request it did not send. A
   * transport whose session spans instances forwards it to the one that can (scale-out).
   * `routed` is true for a message that was forwarded here already (`receive(message, {
   * routed: true })`): it goes nowhere else (an answer whose waiter is gone).
   */
  onUnplaced?: (message: JsonRpcMessage, routed: boolean) => void;
}
