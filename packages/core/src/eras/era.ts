import type { EventBus } from '../app/event-bus';
import type { Logger } from '../logging/logger';
import type { LogLevel } from '../logging/log-levels';
import type { JsonRpcErrorObject, JsonRpcMessage, JsonRpcResponse, RequestId } from '../protocol/json-rpc';
import type { SessionControls } from '../model/session-controls';
import type { ContextFacts } from '../model/context-facts';
import type { RevisionView } from '../model/revision-view';
import type { TransportInfo } from '../model/transport-info';
import type { ServerCapabilities } from '../protocol/mcp-types';
import type { WireCacheHint } from '../results/cache-hints';
import type { ValidatorFactory } from '../validation/validator-factory';
import type { StoredTask } from '../app/task-store';
import type { SubscriptionGrant } from '../model/subscription-grant';
import type { ClientLink } from './client-link';
import type { SessionInfo } from '../model/session-info';
import type { ClientInfo } from '../model/client-info';
import type { OutboundRequestOptions } from '../model/outbound-request-options';
import type { ListenSnapshot, OpenListen, SessionSnapshot } from '../model/session-snapshot';
import type { RequestStates } from '../model/request-states';
import type { RootsChangedHook } from '../model/roots-change';
import type { EraName, Frame, RequestFrame } from '../wire/frame';

/** The settings a codec reads (a part of the app's). */
export interface EraSettings {
  readonly bus: EventBus;
  readonly clientLogging: { defaultLevel: LogLevel | undefined } | undefined;
  readonly maxSubscriptions: number;
  readonly maxListenFilterEntries: number;
  readonly maxUriLength: number;
  readonly requestTimeoutMs: number | undefined;
  /** How long one `roots/list` waits for its answer (`rootsTimeoutMs`). */
  readonly rootsTimeoutMs: number;
  /** Told when a session's client says its roots changed. */
  readonly onRootsChanged: RootsChangedHook | undefined;
  readonly requestState: RequestStates;
  readonly cacheHints: ReadonlyMap<string, WireCacheHint>;
  readonly validators: ValidatorFactory;
}

/** What a codec reads of the app: a view of the dispatcher's app model, which has all of it. */
export interface EraApp {
  readonly capabilities: Readonly<ServerCapabilities>;
  readonly infoMeta: Readonly<Record<string, unknown>>;
  readonly instructions: string | undefined;
  readonly logger: Logger;
  /** The methods that have a handler: the dispatcher runs them, a codec only asks. */
  readonly methods: { has(method: string): boolean };
  /** The compiled pipelines, or undefined: subscription grants are checked against them (a codec only compares them). */
  readonly pipelines: object | undefined;
  readonly settings: Readonly<EraSettings>;
  view(version: string): RevisionView;
}

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
  /**
   * The transport's bound on one answer (its `maxMessageBytes` for what it writes): an answer
   * over it is replaced by its `-32603` error before the request line is written, so the line
   * says `error -32603`, not `ok`. Without it, the transport's own encoding still drops it.
   */
  maxAnswerBytes?: number;
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

/**
 * How the dispatcher is to run a request its codec admitted: how its result and failure take
 * the era's shape, and how it reaches its client.
 */
export interface RunPlan {
  readonly link: ClientLink;
  /**
   * The input-required exchange a later round continues: the dispatcher runs it only while it
   * holds the exchange. Undefined for every other request.
   */
  readonly exchange: string | undefined;
  /**
   * A request the era serves itself for as long as it lasts (a listen), once the dispatcher
   * admitted it; undefined for a request the dispatcher runs through its method's handler.
   */
  readonly lasting?: (frame: RequestFrame, host: EraHost, options: ReceiveOptions, access: LastingAccess) => Promise<JsonRpcResponse | undefined>;
  /** The result as the era sends it; throws to turn it into a failure (an unfinished round). */
  complete(result: Record<string, unknown>, frame: RequestFrame, ctx: ContextFacts): Record<string, unknown>;
  /** The era's own answer to a failure (an input-required round), or undefined for an error. */
  fail(error: unknown, frame: RequestFrame, ctx: ContextFacts): Record<string, unknown> | undefined;
}

/**
 * What a request that lasts (a listen) asks of the dispatcher that admitted it: its context, and
 * the app's read rules for what it may hear of.
 */
export interface LastingAccess {
  /** The request's context, tracked by nobody yet; its messages go to `send`. */
  context(frame: RequestFrame, link: ClientLink, send: (message: JsonRpcMessage) => void): ContextFacts;
  /** What subscribing to `uri` is granted with; undefined when only items hidden from the caller answer it; a denial rejects. */
  grant(uri: string, ctx: ContextFacts): SubscriptionGrant | undefined | Promise<SubscriptionGrant | undefined>;
  /** Whether a subscriber that `grant` let in may still hear of `uri`. */
  hears(uri: string, grant: SubscriptionGrant): boolean;
  /** Whether the caller of `ctx` may see `task` (as `tasks/get` would answer it). */
  maySee(task: StoredTask, ctx: ContextFacts): Promise<boolean>;
}

/** A request its codec answered itself (a refusal, `initialize`, discovery): the dispatcher only logs and traces it. */
export interface Answered {
  readonly answer: JsonRpcResponse | Promise<JsonRpcResponse>;
  /** `monotonicMs()` when the work the answer took began. */
  readonly started: number;
  /** The revision the request line and trace name. */
  readonly version: string;
  readonly sessionId: string | undefined;
  /** Whether the method is one the server has (a metric may name only those). */
  readonly known: boolean;
}

/** What a codec makes of a request: its own answer, or the plan the dispatcher runs it by. */
export type Admission = Answered | RunPlan;

/**
 * Where a request runs, what an era codec needs of it: a client's connection (its in-flight
 * table, channel and session), or the scope of one stateless request that has none of those.
 */
export interface EraHost {
  readonly app: EraApp;
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
  /**
   * The session the era that keeps sessions opened on this channel (opened when first read);
   * undefined on a channel that holds none (a stateless request's scope).
   */
  readonly sessionState: Session | undefined;
  /** Tracks a request in flight so cancellation and close reach it (a listen is kept for snapshots); returns its release. */
  track(id: RequestId, ctx: ContextFacts, listen?: OpenListen): () => void;
  /** Sends a notification on the connection's own channel (dropped when there is none). */
  notify(method: string, params?: Record<string, unknown>): void;
}

/**
 * One protocol era: everything that differs between the legacy revisions and the modern one.
 * The dispatcher asks the frame's era and never branches on it; the era never runs a handler.
 */
export interface Era {
  readonly name: EraName;
  /**
   * The methods this era has (its registry, made once): the dispatcher runs a method's handler
   * only for an era that lists it, and answers `-32601` on any other.
   */
  readonly methods: ReadonlySet<string>;
  /** Whether its requests belong to a session the era keeps (so a stateless dispatch cannot serve them). */
  readonly sessions: boolean;
  /** Opens the session of one client on a channel (an era whose requests belong to one). */
  openSession?(host: SessionHost): Session;
  /** Re-opens a request that lasts (a listen) kept in a snapshot, unacknowledged (an era that has them). */
  reopen?(open: ListenSnapshot, host: EraHost, access: LastingAccess): void;
  /** The JSON-RPC error object of anything thrown, by this era's rules. */
  errorObject(error: unknown): JsonRpcErrorObject;
  /**
   * Reads one request: answers it itself (`initialize`, a request out of order, discovery) or
   * says how the dispatcher is to run it. Never throws.
   */
  admit(frame: RequestFrame, host: EraHost, options: ReceiveOptions): Admission;
  /** Whether a frame may travel in a JSON-RPC batch (and why not). */
  batchable(frame: Frame): string | undefined;
}

/** How a transport's channel asks for the session it may hold (the part of its options a session reads). */
export interface SessionOptions {
  /** No session will follow (stateless HTTP): what needs one is unavailable. */
  readonly sessionless?: boolean;
  /** Continue a session from a snapshot: past the handshake, same log level and subscriptions. */
  readonly restore?: SessionSnapshot;
  /** Relay app events (list changes, resource updates) to the client (default true). */
  readonly appEvents?: boolean;
  /** Ids of requests sent to the client start with this. */
  readonly outboundIdPrefix?: string;
  /** Told of each `resources/subscribe` (true) and `resources/unsubscribe` (false). */
  readonly onSubscription?: (uri: string, on: boolean) => void | Promise<void>;
  /** Told when the client's log level changes (`logging/setLevel`). */
  readonly onLogLevel?: (level: LogLevel | undefined) => void | Promise<void>;
}

/** What a session needs of the channel it lives on: its app, where its messages go, the app's read rules. */
export interface SessionHost {
  readonly app: EraApp;
  readonly transport: TransportInfo;
  /** The transport's session (its id on HTTP). */
  readonly session: SessionInfo;
  /** What the channel declares: the app's capabilities, with `listChanged` when it announces list changes. */
  readonly capabilities: Readonly<ServerCapabilities>;
  readonly logger: Logger;
  /** Where messages that belong to no request go; undefined when there is none. */
  readonly outboundChannel: ((message: JsonRpcMessage) => void) | undefined;
  readonly sessionOptions: SessionOptions;
  /** Sends a notification on the channel's outbound sink (dropped when there is none). */
  notify(method: string, params?: Record<string, unknown>): void;
  /** Whether a subscriber that `grant` let in may still hear of `uri` (the app's read rules may have changed). */
  hears(uri: string, grant: SubscriptionGrant): boolean;
  /** Runs `send` for a request to the client, traced (`mcpkit:client-request`). */
  traceRequest<T>(method: string, params: Record<string, unknown>, send: (params: Record<string, unknown>) => Promise<T>): Promise<T>;
}

/**
 * What one client keeps across its requests on a channel, owned by the codec of the era that has
 * sessions (it opens it: `Era.openSession`): the negotiated client, its log level and
 * subscriptions, the requests the server sent it. The dispatcher and the channel see only this;
 * a channel without a session (a stateless request) never opens one.
 */
export interface Session extends SessionControls {
  /** The client as the handshake described it (the latest revision until then). */
  readonly clientInfo: ClientInfo;
  readonly isInitialized: boolean;
  /** The client-visible log threshold: set here, it is adopted without telling a store. */
  logLevel: LogLevel | undefined;
  /** The client's `logging/setLevel`: settles once a store that shares the session has it. */
  setLogLevel(level: LogLevel | undefined): void | Promise<void>;
  /** The URIs the client subscribed to, in subscription order. */
  readonly subscribedUris: string[];
  /** When it opened (`monotonicMs()`), for its duration; undefined for a restored or sessionless one. */
  readonly openedAt: number | undefined;
  /** The client's answer to a request this session sent; false when none waits by its id. */
  settle(response: Record<string, unknown>): boolean;
  /** The client's progress on a request this session sent; false when none by that token waits. */
  progress(token: unknown): boolean;
  /** Why a batch cannot be served on this session now, if it cannot. */
  batchRefusal(): string | undefined;
  /** Sends a request to the client (on `via`, the asking request's stream, or the channel's sink) and waits for its answer. */
  requestClient(
    method: string,
    params: Record<string, unknown>,
    via: ((message: JsonRpcMessage) => void) | undefined,
    options: OutboundRequestOptions,
  ): Promise<Record<string, unknown>>;
  /** A `list_changed` for each list the channel declares `listChanged` for, once past the handshake. */
  announceListChanges(): void;
  /**
   * A notification from the client that is not about one request
   * (`notifications/roots/list_changed`); `routed`: another instance of the session heard it
   * first and ran what runs once (the app's hook).
   */
  notified(method: string, routed: boolean): void;
  /** The client is gone: reject what waits for it, stop relaying events. */
  close(): void;
}
