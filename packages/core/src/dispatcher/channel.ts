import type { JsonRpcMessage, JsonRpcResponse, RequestId } from '../protocol/json-rpc';
import type { TransportInfo } from '../model/transport-info';
import type { RequestHost } from './request-host';

/**
 * Where a transport's messages arrive and what they need while they run: the requests in flight
 * (cancellation reaches them there), the outbound sink, close. `dispatcher.handle(body, channel)`
 * serves each message on one. Core makes them: a client's connection (`app.connect(transport)`:
 * stdio, an HTTP session, legacy SSE, a WebSocket, the test client), or the scope of one request
 * that belongs to no session (`app.dispatcher.channel(transport)`: stateless HTTP), a channel
 * without a session.
 */
export interface Channel {
  /** What the transport says of itself (kind, headers, the authenticated caller). */
  readonly transport: TransportInfo;
  /** The client is gone: everything in flight is cancelled and nothing more is answered. */
  close(): void;
}

/** @internal What the dispatcher serves a message on: a channel as core makes it. */
export interface ServingChannel extends Channel, RequestHost {
  /** Whether a request of an era whose requests belong to a session may run here (false: a request scope). */
  readonly keepsSessions: boolean;
  /** Cancels the request in flight with this id (`notifications/cancelled`); false when there is none. */
  cancel(id: RequestId, reason: () => Error): boolean;
  /** The client's answer to a request this side sent it; false when none waits by that id. */
  settle(response: Record<string, unknown>): boolean;
  /** The client's progress on a request this side sent it; false when none by that token waits. */
  progress(token: unknown): boolean;
  /**
   * A client notification about no one request (`notifications/roots/list_changed`): the
   * session's, if any; `routed` when another instance heard it first (scale-out).
   */
  notified(method: string, routed: boolean): void;
  /** Why a batch is refused here as a whole now (the negotiated revision has none), if it is. */
  batchRefusal(): string | undefined;
  /**
   * Given a message it could not place (a response, a cancellation or progress of a request it
   * does not have); `routed` when it was forwarded here already (scale-out).
   */
  unplaced(message: JsonRpcMessage, routed: boolean): void;
}

/** @internal The channel as the dispatcher serves on it; a channel core did not make is refused. */
export function servingChannel(channel: Channel): ServingChannel {
  if (!('keepsSessions' in channel))
    throw new TypeError('dispatcher.handle takes a channel core made: app.connect(transport) or app.dispatcher.channel(transport)');
  return channel as ServingChannel;
}

/** What `dispatcher.handle` answers: one response, a batch's, or nothing (notifications, cancelled requests). */
export type HandleAnswer = JsonRpcResponse | JsonRpcResponse[] | undefined;
