import type { AppModel } from './app-model';
import { InvalidParamsError, InvalidRequestError, TooManyRequestsInFlightError } from '../errors/mcp-error';
import { clipJson } from '../errors/clip';
import { errorAnswer } from '../errors/error-answer';
import type { Logger } from '../logging/logger';
import type { LogLevel } from '../logging/log-levels';
import {
  isObject,
  isRequestId,
  type JsonRpcFailure,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcResponse,
  type RequestId,
} from '../protocol/json-rpc';
import { METHOD } from '../protocol/methods';
import { idKey } from '../protocol/exact-id';
import { parseMessage } from '../wire/parse-message';
import type { EraName, Frame, RequestFrame } from '../wire/frame';
import type { ValidatorFactory } from '../validation/validator-factory';
import { classify } from '../eras/classify';
import type { Era, ReceiveOptions } from '../eras/era';
import { ERAS } from '../eras/eras';
import type { HandshakeHost } from '../eras/handshake/codec';
import { HandshakeLink } from '../eras/handshake/handshake-link';
import { HandshakeSession } from '../eras/handshake/session';
import { reopenListen } from '../eras/modern/listen';
import { logRefused } from '../eras/log-refused';
import type { ServerCapabilities } from '../protocol/mcp-types';
import type { ClientInfo } from './client-info';
import { announcedLists, announcingCapabilities, LIST_CHANGED } from './list-changes';
import type { ListenSnapshot, OpenListen, SessionSnapshot } from './session-snapshot';
import type { SessionControls } from './method-handler';
import { clientRequestChannel, sessionChannel, type ClientRequestTrace, type SessionTrace } from './diagnostics-channels';
import type { OutboundRequestOptions } from './outbound-requests';
import type { RequestContext } from './request-context';
import type { SessionInfo } from '../eras/client-link';
import type { TransportInfo } from './transport-info';
import type { SubscriptionGrant } from './readable-resource';
import { RequestTable } from './request-table';
import { answeredUnserved } from './request-line';
import { monotonicMs } from '../logging/monotonic-ms';

export type { ReceiveOptions };

/**
 * A JSON-RPC error response by the rules of `era` (the handshake era's unless told); `id` is
 * null when the request's id could not be read.
 */
export function errorResponse(id: RequestId | null, error: unknown, era: EraName = 'handshake'): JsonRpcFailure {
  return errorAnswer(id, error, ERAS[era].errorObject);
}

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

const NO_OPTIONS: ReceiveOptions = Object.freeze({});

/**
 * One client's connection to an app: the requests in flight, where messages outside a request
 * go, and (handshake era) the session `initialize` opens. Transports feed it messages and write
 * back what it returns; it never touches bytes. Each message is classified once into a frame and
 * served by its era's codec.
 */
export class Connection {
  // Keyed by idKey: ids beyond 2^53 by their digits, so neighbours stay apart.
  private readonly inflight = new RequestTable<RequestContext>();
  // Out of the table (cancelled by the client, or cut short by close) but still running: what a
  // transport that exits now abandons. Made on the first such request.
  private stopping: Set<RequestContext> | undefined = undefined;
  private connectionLogger: Logger | undefined = undefined;
  private readonly baseLogger: Logger;
  private closed = false;
  // At maxRequestsInFlight since the last refusal (its warning is logged).
  private full = false;
  // At maxSubscriptions since the last refused subscribe (its warning is logged).
  private subscriptionsFull = false;
  private link: HandshakeLink | undefined = undefined;
  /** @internal Where messages that belong to no request go. */
  outboundChannel: ((message: JsonRpcMessage) => void) | undefined = undefined;
  private handshakeState: HandshakeSession | undefined = undefined;
  private readonly sessionless: boolean;
  private readonly restored: SessionSnapshot | undefined;
  // Restored listens wait for an outbound channel to deliver on.
  private unopenedListens: ListenSnapshot[] | undefined;
  // Made on the first listen: a stateless request never opens one.
  private listens: Map<string | number, { readonly id: RequestId; readonly listen: OpenListen }> | undefined = undefined;
  private readonly announcing: boolean;
  private readonly outboundIdPrefix: string | undefined;
  private readonly appEvents: boolean;
  private readonly onSubscription: ((uri: string, on: boolean) => void | Promise<void>) | undefined;
  private readonly onLogLevel: ((level: LogLevel | undefined) => void | Promise<void>) | undefined;
  private readonly onUnplaced: ((message: JsonRpcMessage, routed: boolean) => void) | undefined;
  /** What this connection declares: the app's capabilities, with `listChanged` when it announces list changes. */
  readonly capabilities: Readonly<ServerCapabilities>;
  readonly session: SessionInfo;

  /** @internal Made by `app.connect()`. */
  constructor(
    /** @internal */
    readonly app: AppModel,
    readonly transport: TransportInfo,
    options: ConnectionOptions = {},
  ) {
    const { sessionId } = options;
    this.session = sessionId === undefined ? {} : { id: sessionId };
    this.baseLogger = options.logger ?? app.logger;
    this.sessionless = options.sessionless === true;
    this.outboundIdPrefix = options.outboundIdPrefix;
    this.appEvents = options.appEvents !== false;
    this.onSubscription = options.onSubscription;
    this.onLogLevel = options.onLogLevel;
    this.onUnplaced = options.onUnplaced;
    const { restore } = options;
    this.restored = restore;
    this.announcing = options.announceListChanges === true || restore?.announceListChanges === true;
    this.capabilities = this.announcing ? announcingCapabilities(app.capabilities) : app.capabilities;
    if (restore?.listens !== undefined && restore.listens.length > 0) this.unopenedListens = [...restore.listens];
    // A connection that may hold a session relays app events from the start; a stateless one
    // creates session state only if a handshake-era message comes.
    if (!this.sessionless || this.restored?.client !== undefined) void this.handshake;
  }

  /**
   * @internal The handshake era's state of this client: a stateless connection that only serves
   * stateless-era requests never creates one.
   */
  get handshake(): HandshakeSession {
    this.handshakeState ??= new HandshakeSession(
      this.app,
      this.sessionless,
      this.restored,
      this.capabilities,
      (method, params) => this.notify(method, params),
      this.appEvents,
      this.outboundIdPrefix,
      this.transport.auth,
    );
    return this.handshakeState;
  }

  /** The negotiated protocol revision (the latest until `initialize`). */
  get protocolVersion(): string {
    return this.handshake.clientInfo.protocolVersion;
  }

  /** True once `initialize` has been answered (or the connection started initialized). */
  get isInitialized(): boolean {
    return this.handshake.isInitialized;
  }

  /** The client as the handshake described it: what a session store keeps. */
  get clientInfo(): ClientInfo {
    return this.handshake.clientInfo;
  }

  /** The client-visible log threshold; undefined sends nothing. */
  get logLevel(): LogLevel | undefined {
    return this.handshake.logLevel;
  }

  /** Adopts a level set elsewhere (another instance's `logging/setLevel`): no store is told. */
  set logLevel(level: LogLevel | undefined) {
    this.handshake.logLevel = level;
  }

  /** The client's `logging/setLevel`: sets the threshold, and settles once a store that shares it has it. */
  setLogLevel(level: LogLevel | undefined): void | Promise<void> {
    const changed = this.handshake.logLevel !== level;
    this.handshake.logLevel = level;
    return changed ? this.onLogLevel?.(level) : undefined;
  }

  /** Number of requests being handled. */
  get pending(): number {
    return this.inflight.size;
  }

  /** @internal The app's validators (elicitation schemas compile there, once). */
  get validators(): ValidatorFactory {
    return this.app.settings.validators;
  }

  /** True when no session follows this connection (stateless HTTP). */
  get isSessionless(): boolean {
    return this.sessionless;
  }

  /** @internal The link of the session's current client (a new one after `initialize`). */
  get handshakeLink(): HandshakeLink {
    if (this.link === undefined || this.link.client !== this.handshake.clientInfo) this.link = new HandshakeLink(this);
    return this.link;
  }

  /** @internal A child per connection only when something logs: a stateless request usually never does. */
  get logger(): Logger {
    this.connectionLogger ??= this.baseLogger.child(
      this.session.id === undefined ? { transport: this.transport.kind } : { transport: this.transport.kind, sessionId: this.session.id },
    );
    return this.connectionLogger;
  }

  /**
   * Where messages that belong to no request go (list changes, resource updates, requests made
   * outside a request): stdout on stdio, the session's GET stream on HTTP.
   */
  setOutbound(send: ((message: JsonRpcMessage) => void) | undefined): void {
    this.outboundChannel = send;
    const unopened = this.unopenedListens;
    if (send === undefined || unopened === undefined) return;
    this.unopenedListens = undefined;
    for (const open of unopened) {
      try {
        reopenListen(open, this);
      } catch (error) {
        // A listen this server no longer serves (its revision dropped) ends silently: the client re-listens on its own error path.
        this.logger.warn({ err: error, rpcId: open.id }, 'a restored subscriptions/listen could not be re-opened');
      }
    }
  }

  /**
   * What to keep of this client to continue its session in a fresh connection (another
   * process): the negotiated client, its log level and subscriptions, the open
   * `subscriptions/listen` requests, whether list changes are announced. Plain JSON; undefined
   * when there is nothing to keep (no handshake yet, no listen open).
   *
   * @example
   * // Before replacing the process, keep the client's state …
   * process.send?.({ snapshot: connection.snapshot() });
   * // … and in the new one, continue where it stopped.
   * const next = app.connect({ kind: 'stdio' }, { restore: snapshot, announceListChanges: true });
   * next.setOutbound(write);
   * next.announceListChanges();
   */
  snapshot(): SessionSnapshot | undefined {
    const snapshot: SessionSnapshot = {};
    const handshake = this.handshakeState;
    if (!this.sessionless && handshake?.isInitialized) {
      snapshot.client = handshake.clientInfo;
      if (handshake.logLevel !== undefined) snapshot.logLevel = handshake.logLevel;
      const subscriptions = handshake.subscribedUris;
      if (subscriptions.length > 0) snapshot.subscriptions = subscriptions;
    }
    const listens = [...(this.listens?.values() ?? [])].map(({ id, listen }) => ({ id, params: listen.params as Record<string, unknown> }));
    if (this.unopenedListens !== undefined) listens.push(...this.unopenedListens);
    if (listens.length > 0) snapshot.listens = listens;
    if (snapshot.client === undefined && snapshot.listens === undefined) return undefined;
    if (this.announcing) snapshot.announceListChanges = true;
    return snapshot;
  }

  /**
   * Tells the client every list it was promised changes of may have changed: a
   * `list_changed` for each list the connection declares `listChanged` for (once past the
   * handshake), and on each open listen the tagged `list_changed` for the lists its filter
   * honoured. For a server that was replaced under its client (new code, same session).
   *
   * @example
   * const connection = app.connect({ kind: 'stdio' }, { restore: snapshot, announceListChanges: true });
   * connection.setOutbound(write);
   * connection.announceListChanges();
   */
  announceListChanges(): void {
    if (!this.sessionless && this.handshakeState?.isInitialized) {
      for (const list of announcedLists(this.capabilities)) this.notify(LIST_CHANGED[list]);
    }
    for (const { listen } of this.listens?.values() ?? []) listen.announce();
  }

  /** Sends a notification on the outbound channel (dropped when there is none). */
  notify(method: string, params?: Record<string, unknown>): void {
    this.outboundChannel?.(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /**
   * Sends a request to the client and waits for its answer. `via` is the channel to use (the
   * stream of the request that asks); the outbound channel otherwise.
   * @internal Handlers use `ctx.sample`, `ctx.elicit`, `ctx.roots`, `ctx.ping`.
   */
  requestClient(
    method: string,
    params: Record<string, unknown>,
    via: ((message: JsonRpcMessage) => void) | undefined,
    options: OutboundRequestOptions,
  ): Promise<Record<string, unknown>> {
    if (!clientRequestChannel.hasSubscribers) return this.handshake.requestClient(method, params, via ?? this.outboundChannel, options);
    const trace: ClientRequestTrace = { method, sessionId: this.session.id, meta: {} };
    return clientRequestChannel.tracePromise(
      () => this.handshake.requestClient(method, withMeta(params, trace.meta), via ?? this.outboundChannel, options),
      trace,
    );
  }

  /**
   * Handles one raw frame: parses it (`-32700` for anything that is not JSON) and dispatches it.
   * Resolves to the response(s) to send, or `undefined` when nothing is to be sent.
   */
  receiveText(text: string, options?: ReceiveOptions): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
    const parsed = parseMessage(text);
    return parsed.ok ? this.receive(parsed.message, options) : Promise.resolve(parsed.response);
  }

  /**
   * Serves one message the transport has already classified (`classify`, once, at its edge):
   * resolves to the response to send, or `undefined` when nothing is to be sent.
   */
  serveFrame(frame: Frame, options: ReceiveOptions = NO_OPTIONS): Promise<JsonRpcResponse | undefined> {
    return this.serve(frame, options);
  }

  /** Handles one parsed message (or a batch, where the negotiated revision has them). */
  receive(message: unknown, options: ReceiveOptions = NO_OPTIONS): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
    if (Array.isArray(message)) return this.receiveBatch(message, options);
    return this.serve(classify(message, options.era), options);
  }

  /**
   * The requests whose handlers have not returned yet: in flight, or cancelled (by the client,
   * or cut short by `close()`) and still running. What a transport that exits now abandons.
   *
   * @example
   * for (const { id, method } of connection.running()) logger.warn({ rpcId: id, method }, 'request abandoned');
   */
  running(): Array<{ id: RequestId; method: string; cancelled: boolean }> {
    const running = [...this.inflight.values(), ...(this.stopping ?? [])];
    return running.map((ctx) => ({ id: ctx.requestId, method: ctx.method, cancelled: ctx.isCancelled }));
  }

  /**
   * Ends every open `subscriptions/listen` as a cancellation would (no answer follows): for a
   * transport whose client can send nothing more (stdio after its input ended), so no
   * cancellation can come for them.
   */
  endListens(): void {
    for (const [key] of this.listens ?? []) {
      const ctx = this.inflight.get(key);
      this.inflight.delete(key);
      ctx?.cancel(new Error('the client sends nothing more'));
    }
  }

  /** Aborts everything in flight both ways: the client is gone. */
  close(): void {
    this.closed = true;
    const cutShort = [...this.inflight.values()];
    this.inflight.clear();
    for (const ctx of cutShort) this.stop(ctx, new Error('connection closed'));
    const handshake = this.handshakeState;
    if (handshake?.openedAt !== undefined && sessionChannel.hasSubscribers) {
      const trace: SessionTrace = {
        sessionId: this.session.id,
        protocolVersion: handshake.clientInfo.protocolVersion,
        transport: this.transport,
        durationSeconds: (monotonicMs() - handshake.openedAt) / 1000,
      };
      sessionChannel.publish(trace);
    }
    handshake?.close();
    this.outboundChannel = undefined;
  }

  /**
   * @internal `resources/subscribe` (with what let the subscriber in: the read rule of the URI)
   * and `resources/unsubscribe` (undefined).
   */
  subscribe(uri: string, grant: SubscriptionGrant | undefined): void | Promise<void> {
    if (!this.handshake.subscribe(uri, grant)) {
      const limit = this.app.settings.maxSubscriptions;
      // One line each time the session fills up, not one per refused subscribe.
      if (!this.subscriptionsFull) this.logger.warn({ limit }, 'refused a resources/subscribe over maxSubscriptions');
      this.subscriptionsFull = true;
      throw new InvalidParamsError(
        `Too many subscriptions: this session is already subscribed to ${limit} resources (maxSubscriptions); unsubscribe from one first`,
        { limit },
      );
    }
    this.subscriptionsFull = false;
    return this.onSubscription?.(uri, grant !== undefined);
  }

  private async receiveBatch(messages: unknown[], options: ReceiveOptions): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
    const refused = this.batchRefusal(messages.length);
    if (refused !== undefined) {
      // One error answers the batch (JSON-RPC), but each request in it whose id can be read still has its line.
      logRefused(options.logger ?? this.logger, messages, options.transport ?? this.transport, refused, undefined, options.logBindings);
      return errorResponse(null, refused);
    }
    const answers = await Promise.all(
      messages.map((message) => {
        const frame = classify(message, options.era, true);
        const era = ERAS[frame.era];
        const why = era.batchable(frame);
        return why === undefined
          ? this.serve(frame, options)
          : this.unserved(frame, options, errorAnswer(frame.id, new InvalidRequestError(why), era.errorObject));
      }),
    );
    const responses = answers.filter((answer): answer is JsonRpcResponse => answer !== undefined);
    return responses.length > 0 ? responses : undefined;
  }

  /** Why a batch of `length` messages is refused as a whole: no batching in the negotiated revision, empty, over maxBatchLength. */
  private batchRefusal(length: number): InvalidRequestError | undefined {
    const refused = this.handshake.batchRefusal();
    if (refused !== undefined) return new InvalidRequestError(refused);
    if (length === 0) return new InvalidRequestError('An empty batch is not a valid request');
    const limit = this.app.settings.maxBatchLength;
    if (length <= limit) return undefined;
    this.logger.warn({ length, limit }, 'refused a batch over maxBatchLength');
    return new InvalidRequestError(`Batch too large: ${length} messages, at most ${limit} are accepted per batch`);
  }

  private serve(frame: Frame, options: ReceiveOptions): Promise<JsonRpcResponse | undefined> {
    switch (frame.kind) {
      case 'request':
        return ERAS[frame.era].serve(frame as RequestFrame, this as HandshakeHost, options);
      case 'notification':
        if (!this.notification(frame) && this.onUnplaced !== undefined) this.onUnplaced(frameMessage(frame), options.routed === true);
        return Promise.resolve(undefined);
      case 'response':
        // A response answers one of our requests: only a handshake session sends any.
        if (this.handshakeState?.outbound.settle(frame.response!) !== true && this.onUnplaced !== undefined) {
          this.onUnplaced(frame.response as unknown as JsonRpcMessage, options.routed === true);
        }
        return Promise.resolve(undefined);
      default:
        return this.unserved(frame, options, errorAnswer(frame.id, frame.problem, ERAS[frame.era].errorObject));
    }
  }

  private unserved(frame: Frame, options: ReceiveOptions, response: JsonRpcResponse): Promise<JsonRpcResponse> {
    return answeredUnserved(options.logger ?? this.logger, frame, options.transport ?? this.transport, options.logBindings, response);
  }

  /** Handles a notification; false when it names a request this connection does not have (cancelled, progress). */
  private notification(frame: Frame): boolean {
    const { method, params } = frame;
    if (method === METHOD.CANCELLED && isRequestId(params.requestId)) {
      // Cancellation: stop the handler and send no response for it (utilities/cancellation).
      const key = idKey(params.requestId);
      const ctx = this.inflight.get(key);
      if (!ctx) return false;
      this.inflight.delete(key);
      this.stop(ctx, new Error(typeof params.reason === 'string' ? params.reason : 'cancelled by the client'));
    } else if (method === METHOD.PROGRESS) {
      return this.handshakeState?.outbound.progress(params.progressToken) === true;
    }
    // notifications/initialized and unknown notifications need nothing.
    return true;
  }

  // Cancels a request already out of the table; it counts as running until its handler returns.
  private stop(ctx: RequestContext, reason: Error): void {
    (this.stopping ??= new Set()).add(ctx);
    ctx.cancel(reason);
  }

  /**
   * @internal Why a request cannot start now: its id belongs to one still in flight, the
   * connection runs `maxRequestsInFlight` already, or it closed.
   */
  refusal(id: RequestId, era: Era): Promise<JsonRpcResponse | undefined> | undefined {
    if (this.inflight.has(idKey(id)))
      return Promise.resolve(errorAnswer(id, new InvalidRequestError(`Request id ${clipJson(id)} is already in use by a request in flight`), era.errorObject));
    if (this.closed) return Promise.resolve(undefined);
    // Cancelled handlers that have not returned still hold what they hold: they count.
    const limit = this.app.settings.maxRequestsInFlight;
    if (this.inflight.size + (this.stopping?.size ?? 0) < limit) {
      this.full = false;
      return undefined;
    }
    // One line each time the connection fills up, not one per refused request.
    if (!this.full) this.logger.warn({ limit, rpcId: id }, 'refused a request over maxRequestsInFlight');
    this.full = true;
    return Promise.resolve(errorAnswer(id, new TooManyRequestsInFlightError(limit), era.errorObject));
  }

  /** @internal True once the connection closed: requests cut short by it are answered with why. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** @internal What handshake-era methods change: this connection's session. */
  get controls(): SessionControls {
    return this;
  }

  /** @internal Tracks a request in flight so cancellation and close reach it; returns its release. */
  track(id: RequestId, ctx: RequestContext, listen?: OpenListen): () => void {
    const key = idKey(id);
    this.inflight.set(key, ctx);
    const open = listen === undefined ? undefined : { id, listen };
    if (open !== undefined) (this.listens ??= new Map()).set(key, open);
    return () => {
      if (this.inflight.get(key) === ctx) this.inflight.delete(key);
      else this.stopping?.delete(ctx);
      if (open !== undefined && this.listens?.get(key) === open) this.listens.delete(key);
    };
  }
}

export type { JsonRpcNotification };

/** A notification frame as the message it was. */
function frameMessage(frame: Frame): JsonRpcMessage {
  return { jsonrpc: '2.0', method: frame.method!, params: frame.params } as JsonRpcMessage;
}

/** The params with what a `mcpkit:client-request` subscriber put in `_meta` (a `traceparent`). */
function withMeta(params: Record<string, unknown>, meta: Record<string, unknown>): Record<string, unknown> {
  for (const _ in meta) return { ...params, _meta: { ...(isObject(params._meta) ? params._meta : {}), ...meta } };
  return params;
}
