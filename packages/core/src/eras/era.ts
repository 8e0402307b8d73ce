import type { AppModel } from '../dispatcher/app-model';
import type { Logger } from '../logging/logger';
import type { JsonRpcErrorObject, JsonRpcMessage, JsonRpcResponse, RequestId } from '../protocol/json-rpc';
import type { SessionControls } from '../dispatcher/method-handler';
import type { RequestContext } from '../dispatcher/request-context';
import type { TransportInfo } from '../dispatcher/transport-info';
import type { OpenListen } from '../dispatcher/session-snapshot';
import type { ServerCapabilities } from '../protocol/mcp-types';
import type { ClientLink } from './client-link';
import type { EraName, Frame, RequestFrame } from '../wire/frame';

/** What the transport provides for one incoming message. */
export interface ReceiveOptions {
  /** The logger of this request (e.g. Fastify's `request.log`); defaults to the connection's. */
  logger?: Logger;
  /**
   * Delivers messages related to the request (progress, logs, server-to-client requests) before
   * its response. Without it they go to the connection's outbound channel, if any.
   */
  send?: (message: JsonRpcMessage) => void;
  /** Facts about this very request (HTTP headers change per request within one session). */
  transport?: TransportInfo;
  /**
   * Fields for this request's log lines on top of the logger's own (an HTTP session's id): cheaper
   * than a child logger per request, which pino makes expensive when the parent is per request too.
   */
  logBindings?: Readonly<Record<string, unknown>>;
  /** The era the transport already recognised (from its version header), whatever `_meta` claims. */
  era?: EraName;
  /**
   * Closes this request's HTTP connection without ending its stream (SSE polling): the client
   * comes back with `Last-Event-ID` for the rest. Absent on transports without it.
   */
  detach?: () => void;
  /** The message was forwarded from another instance (scale-out): if this connection cannot place it either, it goes nowhere else. */
  routed?: boolean;
  /**
   * Registers what to do once nobody can receive this message's answers any more (an HTTP
   * client that left a POST whose answer was to be JSON: there is no stream to resume): each of
   * its requests still running is cancelled, and nothing is answered for it.
   */
  unreachable?: (listener: () => void) => void;
  /**
   * Given an `initialize` the session accepted, before it is answered: keeps the session where
   * the transport keeps it (a shared store may refuse it: too large, unreachable) and resolves to
   * what the client is answered, this success or the refusal, which the request line then says.
   * Never rejects.
   */
  openSession?: (answer: JsonRpcResponse) => Promise<JsonRpcResponse>;
}

/** How a request's result and failure take their era's shape, and how it reaches its client. */
export interface RunPlan {
  readonly link: ClientLink;
  /** The result as the era sends it; throws to turn it into a failure (an unfinished round). */
  complete(result: Record<string, unknown>, frame: RequestFrame, ctx: RequestContext): Record<string, unknown>;
  /** The era's own answer to a failure (an input-required round), or undefined for an error. */
  fail(error: unknown, frame: RequestFrame, ctx: RequestContext): Record<string, unknown> | undefined;
}

/**
 * Where a request runs, what an era codec needs of it: a client's connection (its in-flight
 * table, channel and session), or the scope of one stateless request that has none of those.
 */
export interface EraHost {
  readonly app: AppModel;
  readonly transport: TransportInfo;
  /** What this connection declares: the app's capabilities, with `listChanged` when it announces list changes. */
  readonly capabilities: Readonly<ServerCapabilities>;
  /** The connection's logger (a child with its transport and session). */
  readonly logger: Logger;
  /** Where messages that belong to no request go; undefined when there is none. */
  readonly outboundChannel: ((message: JsonRpcMessage) => void) | undefined;
  /** Why a request with this id cannot start now (its id is in flight, the connection closed). */
  refusal(id: RequestId, era: Era): Promise<JsonRpcResponse | undefined> | undefined;
  /** True once the client is gone (connection closed): a request cut short by it is answered with why. */
  readonly isClosed: boolean;
  /** What a handshake-era method may change on its session (the stateless era has none of those methods). */
  readonly controls: SessionControls;
  /** Tracks a request in flight so cancellation and close reach it (a listen is kept for snapshots); returns its release. */
  track(id: RequestId, ctx: RequestContext, listen?: OpenListen): () => void;
  /** Sends a notification on the connection's own channel (dropped when there is none). */
  notify(method: string, params?: Record<string, unknown>): void;
}

/**
 * One protocol era: everything that differs between the handshake revisions and the stateless
 * one. The dispatcher asks the frame's era and never branches on it.
 */
export interface Era {
  readonly name: EraName;
  /** Whether its requests belong to a session the era keeps (so a stateless dispatch cannot serve them). */
  readonly sessions: boolean;
  /** The JSON-RPC error object of anything thrown, by this era's rules. */
  errorObject(error: unknown): JsonRpcErrorObject;
  /** Serves one request frame of this era. */
  serve(frame: RequestFrame, host: EraHost, options: ReceiveOptions): Promise<JsonRpcResponse | undefined>;
  /** Whether a frame may travel in a JSON-RPC batch (and why not). */
  batchable(frame: Frame): string | undefined;
}
