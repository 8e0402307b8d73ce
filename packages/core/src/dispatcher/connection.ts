import type { AppModel } from './app-model';
import { InvalidRequestError, TooManyRequestsInFlightError } from '../errors/mcp-error';
import { clipJson } from '../errors/clip';
import { errorAnswer } from '../errors/error-answer';
import type { Logger } from '../logging/logger';
import type { LogLevel } from '../logging/log-levels';
import type { JsonRpcMessage, JsonRpcResponse, RequestId } from '../protocol/json-rpc';
import type { Frame } from '../wire/frame';
import { classify } from '../eras/classify';
import type { Era, ReceiveOptions, Session, SessionOptions } from '../eras/era';
import { openSession, reopenLasting } from '../eras/eras';
import type { ServerCapabilities } from '../protocol/mcp-types';
import type { ClientInfo } from '../model/client-info';
import { announcingCapabilities } from '../model/list-changes';
import { sessionSnapshot, type ListenSnapshot, type OpenListen, type SessionSnapshot } from '../model/session-snapshot';
import type { SessionControls } from '../model/session-controls';
import { publishSessionEnd, traceClientRequest } from './diagnostics-channels';
import type { HandlerContext } from './handler-context';
import type { SessionInfo } from '../model/session-info';
import type { TransportInfo } from '../model/transport-info';
import type { SubscriptionGrant } from '../model/subscription-grant';
import { mayHear } from './readable-resource';
import { ConnectionRequests } from './connection-requests';
import type { ConnectionOptions } from './connection-options';
import { handleMessage } from './handle-message';
import { readBody } from './read-body';
import type { HandleAnswer } from './channel';
import { lastingAccess } from './lasting-access';

export type { ReceiveOptions };

const NO_OPTIONS: ReceiveOptions = Object.freeze({});

/**
 * One client's channel to an app, as its transport sees it: the requests in flight (cancellation
 * and close reach them), the outbound sink for messages outside a request, and the `Session` an
 * era with sessions opens on it (owned by that era's codec: the negotiated client, log level,
 * subscriptions, the requests sent to the client). Transports hand it to
 * `app.dispatcher.handle(body, connection)` with each message; it never touches bytes.
 */
export class Connection {
  private readonly requests = new ConnectionRequests();
  private connectionLogger: Logger | undefined = undefined;
  private closed = false;
  /** @internal Where messages that belong to no request go. */
  outboundChannel: ((message: JsonRpcMessage) => void) | undefined = undefined;
  private opened: Session | undefined = undefined;
  private readonly sessionless: boolean;
  // Restored listens wait for an outbound channel to deliver on.
  private unopenedListens: ListenSnapshot[] | undefined;
  private readonly announcing: boolean;
  /** What this connection declares: the app's capabilities, with `listChanged` when it announces list changes. */
  readonly capabilities: Readonly<ServerCapabilities>;
  readonly session: SessionInfo;

  /** @internal Made by `app.connect()`. */
  constructor(
    /** @internal */
    readonly app: AppModel,
    readonly transport: TransportInfo,
    private readonly options: ConnectionOptions = {},
  ) {
    const { sessionId } = options;
    this.session = sessionId === undefined ? {} : { id: sessionId };
    this.sessionless = options.sessionless === true;
    const { restore } = options;
    this.announcing = options.announceListChanges === true || restore?.announceListChanges === true;
    this.capabilities = this.announcing ? announcingCapabilities(app.capabilities) : app.capabilities;
    if (restore?.listens !== undefined && restore.listens.length > 0) this.unopenedListens = [...restore.listens];
    // A connection that may hold a session relays app events from the start; a sessionless one
    // opens its session only if a message of an era with sessions comes.
    if (!this.sessionless || restore?.client !== undefined) void this.sessionState;
  }

  /**
   * @internal The session held on this connection, opened by the codec of the era that keeps
   * sessions when first read: a sessionless connection that serves only requests without one
   * never opens it.
   */
  get sessionState(): Session {
    this.opened ??= openSession(this);
    return this.opened;
  }

  /** @internal What the session reads of this connection's options. */
  get sessionOptions(): SessionOptions {
    return this.options;
  }

  /** The negotiated protocol revision (the latest until `initialize`). */
  get protocolVersion(): string {
    return this.sessionState.clientInfo.protocolVersion;
  }

  /** True once `initialize` has been answered (or the connection started initialized). */
  get isInitialized(): boolean {
    return this.sessionState.isInitialized;
  }

  /** The client as the handshake described it: what a session store keeps. */
  get clientInfo(): ClientInfo {
    return this.sessionState.clientInfo;
  }

  /** The client-visible log threshold; undefined sends nothing. */
  get logLevel(): LogLevel | undefined {
    return this.sessionState.logLevel;
  }

  /** Adopts a level set elsewhere (another instance's `logging/setLevel`): no store is told. */
  set logLevel(level: LogLevel | undefined) {
    this.sessionState.logLevel = level;
  }

  /** The client's `logging/setLevel`: sets the threshold, and settles once a store that shares it has it. */
  setLogLevel(level: LogLevel | undefined): void | Promise<void> {
    return this.sessionState.setLogLevel(level);
  }

  /** Number of requests being handled. */
  get pending(): number {
    return this.requests.size;
  }

  /** True when no session follows this connection (stateless HTTP). */
  get isSessionless(): boolean {
    return this.sessionless;
  }

  /** @internal Whether a subscriber that `grant` let in may still hear of `uri` (the app's read rules now). */
  hears(uri: string, grant: SubscriptionGrant): boolean {
    return mayHear(this.app.map, this.app.pipelines, uri, grant);
  }

  /** @internal A request to the client, traced (`mcpkit:client-request`). */
  traceRequest<T>(method: string, params: Record<string, unknown>, send: (params: Record<string, unknown>) => Promise<T>): Promise<T> {
    return traceClientRequest(method, this.session.id, params, send);
  }

  /** @internal A child per connection only when something logs: a stateless request usually never does. */
  get logger(): Logger {
    this.connectionLogger ??= (this.options.logger ?? this.app.logger).child(
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
        reopenLasting(open, this, lastingAccess(this, NO_OPTIONS));
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
    const session = this.opened;
    const listens = [...this.requests.openListens()].map(({ id, listen }) => ({ id, params: listen.params as Record<string, unknown> }));
    if (this.unopenedListens !== undefined) listens.push(...this.unopenedListens);
    return sessionSnapshot(!this.sessionless && session?.isInitialized ? session : undefined, listens, this.announcing);
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
    this.opened?.announceListChanges();
    for (const { listen } of this.requests.openListens()) listen.announce();
  }

  /** Sends a notification on the outbound channel (dropped when there is none). */
  notify(method: string, params?: Record<string, unknown>): void {
    this.outboundChannel?.(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /**
   * Handles one raw message: parses it (`-32700` for anything that is not JSON) and serves it.
   * @deprecated Read the text with `readBody` and serve it with `app.dispatcher.handle(body, connection, options)`;
   * this goes in the next release.
   */
  receiveText(text: string, options?: ReceiveOptions): Promise<HandleAnswer> {
    const read = readBody(text, options?.era);
    return read.ok ? handleMessage(read.body, this, options) : Promise.resolve(read.response);
  }

  /**
   * Serves one message the transport has already classified.
   * @deprecated Use `app.dispatcher.handle(frame, connection, options)`; this goes in the next release.
   */
  serveFrame(frame: Frame, options?: ReceiveOptions): Promise<JsonRpcResponse | undefined> {
    return handleMessage(frame, this, options);
  }

  /**
   * Handles one parsed message (or a batch, where the negotiated revision has them).
   * @deprecated Use `app.dispatcher.handle(Array.isArray(message) ? message : classify(message), connection, options)`;
   * this goes in the next release.
   */
  receive(message: unknown, options: ReceiveOptions = NO_OPTIONS): Promise<HandleAnswer> {
    return handleMessage(Array.isArray(message) ? message : classify(message, options.era), this, options);
  }

  /**
   * The requests whose handlers have not returned yet: in flight, or cancelled (by the client,
   * or cut short by `close()`) and still running. What a transport that exits now abandons.
   *
   * @example
   * for (const { id, method } of connection.running()) logger.warn({ rpcId: id, method }, 'request abandoned');
   */
  running(): Array<{ id: RequestId; method: string; cancelled: boolean }> {
    return this.requests.running().map((ctx) => ({ id: ctx.requestId, method: ctx.method, cancelled: ctx.isCancelled }));
  }

  /**
   * Ends every open `subscriptions/listen` as a cancellation would (no answer follows): for a
   * transport whose client can send nothing more (stdio after its input ended), so no
   * cancellation can come for them.
   */
  endListens(): void {
    this.requests.endListens(new Error('the client sends nothing more'));
  }

  /** Aborts everything in flight both ways: the client is gone. */
  close(): void {
    this.closed = true;
    this.requests.cancelAll(new Error('connection closed'));
    const session = this.opened;
    if (session?.openedAt !== undefined) publishSessionEnd(this.session.id, session.clientInfo.protocolVersion, this.transport, session.openedAt);
    session?.close();
    this.outboundChannel = undefined;
  }

  /** @internal Cancels the request in flight with this id (`notifications/cancelled`); false when there is none. */
  cancel(id: RequestId, reason: () => Error): boolean {
    return this.requests.cancel(id, reason);
  }

  /** @internal The client's answer to a request the session sent it: only a session sends any. */
  settle(response: Record<string, unknown>): boolean {
    return this.opened?.settle(response) === true;
  }

  /** @internal The client's progress on a request the session sent it. */
  progress(token: unknown): boolean {
    return this.opened?.progress(token) === true;
  }

  /** @internal A client notification about no one request: the session hears it. */
  notified(method: string, routed: boolean): void {
    this.opened?.notified(method, routed);
  }

  /** @internal Why a batch cannot be served now (the negotiated revision has none), if it cannot. */
  batchRefusal(): string | undefined {
    return this.sessionState.batchRefusal();
  }

  /** @internal A message this connection cannot place: the transport may forward it (scale-out). */
  unplaced(message: JsonRpcMessage, routed: boolean): void {
    this.options.onUnplaced?.(message, routed);
  }

  /**
   * @internal Why a request cannot start now: its id belongs to one still in flight, the
   * connection runs `maxRequestsInFlight` already, or it closed.
   */
  refusal(id: RequestId, era: Era): Promise<JsonRpcResponse | undefined> | undefined {
    if (this.requests.has(id))
      return Promise.resolve(errorAnswer(id, new InvalidRequestError(`Request id ${clipJson(id)} is already in use by a request in flight`), era.errorObject));
    if (this.closed) return Promise.resolve(undefined);
    const limit = this.app.settings.maxRequestsInFlight;
    const room = this.requests.roomFor(limit);
    if (room === 'free') return undefined;
    // One line each time the connection fills up, not one per refused request.
    if (room === 'filled') this.logger.warn({ limit, rpcId: id }, 'refused a request over maxRequestsInFlight');
    return Promise.resolve(errorAnswer(id, new TooManyRequestsInFlightError(limit), era.errorObject));
  }

  /** @internal A connection may hold a session. */
  get keepsSessions(): boolean {
    return true;
  }

  /** @internal True once the connection closed: requests cut short by it are answered with why. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** @internal What the methods of an era with sessions change: this connection's session. */
  get controls(): SessionControls {
    return this.sessionState;
  }

  /** @internal Tracks a request in flight so cancellation and close reach it; returns its release. */
  track(id: RequestId, ctx: HandlerContext, listen?: OpenListen): () => void {
    return this.requests.track(id, ctx, listen);
  }
}
