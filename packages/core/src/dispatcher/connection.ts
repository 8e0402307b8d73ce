import type { McpApp } from '../app/app';
import type { AppEvent } from '../app/event-bus';
import { resolveCacheHint, UNCACHEABLE, type WireCacheHint } from '../app/cache-hints';
import { ClientCapabilityError } from '../errors/client-errors';
import { InternalError, InvalidParamsError, InvalidRequestError, McpError, MethodNotFoundError } from '../errors/mcp-error';
import { clip, clipJson } from '../errors/clip';
import { toJsonRpcError } from '../errors/to-json-rpc-error';
import { isLevelEnabled, type Logger } from '../logging/logger';
import { requestLine } from '../logging/fast-line';
import { isObject, isRequestId, type JsonRpcFailure, type JsonRpcMessage, type JsonRpcNotification, type JsonRpcResponse, type RequestId } from '../protocol/json-rpc';
import type { ClientCapabilities, Implementation, ServerCapabilities } from '../protocol/mcp-types';
import { METHOD } from '../protocol/methods';
import { parseMessage } from '../protocol/parse-message';
import { idKey } from '../protocol/exact-id';
import { LATEST_LEGACY_PROTOCOL_VERSION, negotiateProtocolVersion } from '../protocol/protocol-versions';
import type { ValidatorFactory } from '../validation/validator-factory';
import type { MethodHandler } from './method-table';
import type { LogLevel } from '../logging/log-levels';
import {
  discoverResult,
  hasModernClaim,
  honouredFilter,
  inputRequiredResult,
  MRTR_METHODS,
  readModernRequest,
  type ModernRequest,
  SERVER_DISCOVER,
  shapeModernResult,
  SUBSCRIPTION_ID,
  SUBSCRIPTIONS_ACKNOWLEDGED,
  SUBSCRIPTIONS_LISTEN,
} from './modern-era';
import { InputRequiredSignal } from './input-required';
import { traceIdOf } from './trace-context';
import { OutboundRequests, type OutboundRequestOptions } from './outbound-requests';
import { RequestContext, type ClientInfo, type SessionInfo, type TransportInfo } from './request-context';

const EMPTY_PARAMS: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/** A JSON-RPC error response; `id` is null when the request's id could not be read. */
export function errorResponse(id: RequestId | null, error: unknown, modern = false): JsonRpcFailure {
  return { jsonrpc: '2.0', id, error: toJsonRpcError(error, modern) };
}

function readableId(message: Record<string, unknown>): RequestId | null {
  return isRequestId(message.id) ? message.id : null;
}

/** Capabilities without what needs a session to work. */
function sessionlessCapabilities(capabilities: Readonly<ServerCapabilities>): ServerCapabilities {
  const { logging: _logging, ...rest } = capabilities;
  if (rest.resources) rest.resources = {};
  if (rest.tools) rest.tools = {};
  if (rest.prompts) rest.prompts = {};
  return rest;
}

function targetOf(method: string, params: Record<string, unknown>): unknown {
  if (method === METHOD.TOOLS_CALL || method === METHOD.PROMPTS_GET) return params.name;
  if (method === METHOD.RESOURCES_READ) return params.uri;
  return undefined;
}

/** How a transport opens a connection. */
export interface ConnectionOptions {
  /** The transport's session id (HTTP `Mcp-Session-Id`). */
  sessionId?: string;
  /** A logger to use instead of the app's (stdio replaces one that writes to stdout). */
  logger?: Logger;
  /**
   * Start past the handshake with this client state: a stateless HTTP request, or a session
   * restored from a store on another instance.
   */
  initialized?: ClientInfo;
  /**
   * No session will follow (stateless HTTP): capabilities that need one (a stored log level,
   * subscriptions, list-change notifications, server-to-client requests) are unavailable.
   */
  sessionless?: boolean;
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
  /** Serve as 2026-07-28 even without a `_meta` claim (the transport saw a modern header). */
  modern?: boolean;
  /**
   * Closes this request's HTTP connection without ending its stream (SSE polling, 2025-11-25):
   * the client comes back with `Last-Event-ID` for the rest. Absent on transports without it.
   */
  detach?: () => void;
}

const NO_OPTIONS: ReceiveOptions = Object.freeze({});

/**
 * One client's conversation with an app over the handshake era: the negotiated revision, the
 * client's capabilities, its log level and subscriptions, and the requests in flight both ways.
 * Transports feed it messages and write back what it returns; it never touches bytes.
 */
export class Connection {
  private initialized = false;
  private client: ClientInfo = { protocolVersion: LATEST_LEGACY_PROTOCOL_VERSION, capabilities: {} };
  // Keyed by idKey: ids beyond 2^53 by their digits, so neighbours stay apart.
  private readonly inflight = new Map<string | number, RequestContext>();
  private connectionLogger: Logger | undefined = undefined;
  private readonly baseLogger: Logger;
  private readonly logRequests: boolean;
  private closed = false;
  private readonly sessionless: boolean;
  private outboundChannel: ((message: JsonRpcMessage) => void) | undefined = undefined;
  private readonly outbound = new OutboundRequests();
  private readonly subscriptions = new Set<string>();
  private unsubscribeBus: (() => void) | undefined = undefined;
  /** The client-visible log threshold; undefined sends nothing. */
  logLevel: LogLevel | undefined;
  readonly session: SessionInfo;

  constructor(
    private readonly app: McpApp,
    readonly transport: TransportInfo,
    options: ConnectionOptions = {},
  ) {
    const { sessionId } = options;
    this.session = sessionId === undefined ? {} : { id: sessionId };
    this.baseLogger = options.logger ?? app.logger;
    this.sessionless = options.sessionless === true;
    // Decided once: the per-request line costs nothing when info is off.
    this.logRequests = isLevelEnabled(this.baseLogger, 'info');
    this.logLevel = app.settings.clientLogging?.defaultLevel;
    if (options.initialized) {
      this.client = Object.freeze({ ...options.initialized });
      this.initialized = true;
    }
    if (!this.sessionless) this.unsubscribeBus = app.settings.bus.subscribe((event) => this.onAppEvent(event));
  }

  /** The negotiated protocol revision (the latest until `initialize`). */
  get protocolVersion(): string {
    return this.client.protocolVersion;
  }

  /** True once `initialize` has been answered (or the connection started initialized). */
  get isInitialized(): boolean {
    return this.initialized;
  }

  /** The client as the handshake described it: what a session store keeps. */
  get clientInfo(): ClientInfo {
    return this.client;
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

  // A child per connection only when something logs: a stateless request usually never does.
  private get logger(): Logger {
    this.connectionLogger ??= this.baseLogger.child(this.session.id === undefined ? { transport: this.transport.kind } : { transport: this.transport.kind, sessionId: this.session.id });
    return this.connectionLogger;
  }

  /**
   * Where messages that belong to no request go (list changes, resource updates, requests made
   * outside a request): stdout on stdio, the session's GET stream on HTTP.
   */
  setOutbound(send: ((message: JsonRpcMessage) => void) | undefined): void {
    this.outboundChannel = send;
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
  requestClient(method: string, params: Record<string, unknown>, via: ((message: JsonRpcMessage) => void) | undefined, options: OutboundRequestOptions): Promise<Record<string, unknown>> {
    const send = via ?? this.outboundChannel;
    if (this.sessionless || send === undefined) {
      return Promise.reject(new ClientCapabilityError(`${method} needs a session to reach the client: this request is stateless`));
    }
    return this.outbound.request(method, params, send, { timeoutMs: this.app.settings.requestTimeoutMs, ...options });
  }

  /**
   * Handles one raw frame: parses it (`-32700` for anything that is not JSON) and dispatches it.
   * Resolves to the response(s) to send, or `undefined` when nothing is to be sent.
   */
  receiveText(text: string, options?: ReceiveOptions): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
    const frame = parseMessage(text);
    return frame.ok ? this.receive(frame.message, options) : Promise.resolve(frame.response);
  }

  /** Handles one parsed message (or a batch, on a 2025-03-26 connection). */
  receive(message: unknown, options: ReceiveOptions = NO_OPTIONS): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
    if (Array.isArray(message)) return this.receiveBatch(message, options);
    return this.receiveOne(message, options, false);
  }

  /** Aborts everything in flight both ways: the client is gone. */
  close(): void {
    this.closed = true;
    for (const ctx of this.inflight.values()) ctx.cancel(new Error('connection closed'));
    this.inflight.clear();
    this.outbound.closeAll();
    this.unsubscribeBus?.();
    this.unsubscribeBus = undefined;
    this.subscriptions.clear();
    this.outboundChannel = undefined;
  }

  /** @internal `resources/subscribe` and `resources/unsubscribe`. */
  subscribe(uri: string, on: boolean): void {
    if (on) this.subscriptions.add(uri);
    else this.subscriptions.delete(uri);
  }

  private onAppEvent(event: AppEvent): void {
    if (!this.initialized || this.closed) return;
    if (event.type === 'resourceUpdated') {
      if (this.subscriptions.has(event.uri)) this.notify(METHOD.RESOURCE_UPDATED, { uri: event.uri });
      return;
    }
    const capability = this.app.capabilities[event.list];
    if (capability && 'listChanged' in capability && capability.listChanged) this.notify(`notifications/${event.list}/list_changed`);
  }

  private async receiveBatch(messages: unknown[], options: ReceiveOptions): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
    // Batching exists only in 2025-03-26 (basic/index, "Batching"); later revisions removed it.
    if (!this.initialized || this.client.protocolVersion !== '2025-03-26') {
      return errorResponse(null, new InvalidRequestError('JSON-RPC batches are only accepted after negotiating protocol revision 2025-03-26'));
    }
    if (messages.length === 0) return errorResponse(null, new InvalidRequestError('An empty batch is not a valid request'));
    const limit = this.app.settings.maxBatchLength;
    if (messages.length > limit) {
      this.logger.warn({ length: messages.length, limit }, 'refused a batch over maxBatchLength');
      return errorResponse(null, new InvalidRequestError(`Batch too large: ${messages.length} messages, at most ${limit} are accepted per batch`));
    }
    const answers = await Promise.all(messages.map((message) => this.receiveOne(message, options, true)));
    const responses = answers.filter((answer): answer is JsonRpcResponse => answer !== undefined);
    return responses.length > 0 ? responses : undefined;
  }

  private receiveOne(message: unknown, options: ReceiveOptions, inBatch: boolean): Promise<JsonRpcResponse | undefined> {
    if (!isObject(message)) return Promise.resolve(errorResponse(null, new InvalidRequestError('A JSON-RPC message must be an object')));
    if (message.jsonrpc !== '2.0') return Promise.resolve(errorResponse(readableId(message), new InvalidRequestError('jsonrpc must be "2.0"')));
    const method = message.method;
    const id = message.id;
    if (typeof method !== 'string') {
      // A response: to one of our requests, or stale (dropped).
      if (id !== undefined && ('result' in message || 'error' in message)) {
        this.outbound.settle(message);
        return Promise.resolve(undefined);
      }
      return Promise.resolve(errorResponse(readableId(message), new InvalidRequestError('A JSON-RPC request needs a string method')));
    }
    if (id === undefined) {
      this.notification(method, message.params);
      return Promise.resolve(undefined);
    }
    if (!isRequestId(id)) return Promise.resolve(errorResponse(null, new InvalidRequestError('A request id must be a string or a number (not null)')));
    const params = message.params;
    if (params !== undefined && !isObject(params)) return Promise.resolve(errorResponse(id, new InvalidParamsError('params must be an object')));
    // Era routing per message (protocol.md §3.3): a modern claim is served statelessly. 2026-07-28
    // has no batches, and a request hidden in one would skip its transport's header checks.
    if (inBatch && (options.modern || hasModernClaim(params))) {
      return Promise.resolve(errorResponse(id, new InvalidRequestError('A 2026-07-28 request cannot be part of a JSON-RPC batch; send it on its own'), true));
    }
    if (options.modern || hasModernClaim(params)) return this.receiveModern(id, method, (params ?? EMPTY_PARAMS) as Record<string, unknown>, options);
    if (method === METHOD.INITIALIZE) {
      if (inBatch) return Promise.resolve(errorResponse(id, new InvalidRequestError('initialize must not be part of a batch')));
      return Promise.resolve(this.initialize(id, params ?? EMPTY_PARAMS));
    }
    // Lifecycle: before initialize a client may only ping.
    if (!this.initialized && method !== METHOD.PING) {
      return Promise.resolve(errorResponse(id, new InvalidRequestError(`Received ${clip(method)} before initialize; send initialize first`)));
    }
    const handler = this.app.methods.get(method);
    if (!handler || (this.sessionless && (method === METHOD.LOGGING_SET_LEVEL || method === METHOD.RESOURCES_SUBSCRIBE || method === METHOD.RESOURCES_UNSUBSCRIBE))) {
      return Promise.resolve(errorResponse(id, new MethodNotFoundError(method)));
    }
    return this.refusal(id, false) ?? this.run(id, method, params ?? EMPTY_PARAMS, handler, options);
  }

  private initialize(id: RequestId, params: Record<string, unknown>): JsonRpcResponse {
    if (this.initialized) return errorResponse(id, new InvalidRequestError('This connection is already initialized'));
    const { protocolVersion, capabilities, clientInfo } = params;
    if (typeof protocolVersion !== 'string') return errorResponse(id, new InvalidParamsError('initialize needs params.protocolVersion, a string'));
    if (capabilities !== undefined && !isObject(capabilities)) return errorResponse(id, new InvalidParamsError('initialize params.capabilities must be an object'));
    if (clientInfo !== undefined && !isObject(clientInfo)) return errorResponse(id, new InvalidParamsError('initialize params.clientInfo must be an object'));
    const version = negotiateProtocolVersion(protocolVersion);
    this.client = Object.freeze({
      protocolVersion: version,
      capabilities: (capabilities ?? {}) as ClientCapabilities,
      info: clientInfo as Implementation | undefined,
    });
    this.initialized = true;
    const result: Record<string, unknown> = {
      protocolVersion: version,
      capabilities: this.sessionless ? sessionlessCapabilities(this.app.capabilities) : this.app.capabilities,
      serverInfo: this.app.view(version).serverInfo,
    };
    if (this.app.instructions !== undefined) result.instructions = this.app.instructions;
    return { jsonrpc: '2.0', id, result };
  }

  private notification(method: string, params: unknown): void {
    if (!isObject(params)) return;
    if (method === METHOD.CANCELLED && isRequestId(params.requestId)) {
      // Cancellation: stop the handler and send no response for it (utilities/cancellation).
      const key = idKey(params.requestId);
      const ctx = this.inflight.get(key);
      if (ctx) {
        this.inflight.delete(key);
        ctx.cancel(new Error(typeof params.reason === 'string' ? params.reason : 'cancelled by the client'));
      }
    } else if (method === METHOD.PROGRESS) {
      this.outbound.progress(params.progressToken);
    }
    // notifications/initialized and unknown notifications need nothing.
  }

  /** A 2026-07-28 request: everything it needs is in its own `_meta`; nothing is stored. */
  private receiveModern(id: RequestId, method: string, params: Record<string, unknown>, options: ReceiveOptions): Promise<JsonRpcResponse | undefined> {
    let modern: ModernRequest;
    try {
      modern = readModernRequest(method, params);
      // MRTR retries: the answers of earlier rounds travel in the signed requestState, bounded
      // (size, depth) before anything recursive reads them.
      if (params.requestState !== undefined || params.inputResponses !== undefined) {
        modern.answers = this.app.settings.requestState.answersOf(params, method, String(targetOf(method, params) ?? ''));
      }
    } catch (error) {
      return Promise.resolve(errorResponse(id, error, true));
    }
    if (method === SERVER_DISCOVER) {
      return Promise.resolve({ jsonrpc: '2.0', id, result: shapeModernResult(discoverResult(this.app), this.app.infoMeta, this.app.settings.cacheHints.get(method)) });
    }
    // readModernRequest already answered the methods 2026-07-28 removed.
    const handler = this.app.methods.get(method);
    if (!handler && method !== SUBSCRIPTIONS_LISTEN) return Promise.resolve(errorResponse(id, new MethodNotFoundError(method), true));
    const refused = this.refusal(id, true);
    if (refused) return refused;
    if (method === SUBSCRIPTIONS_LISTEN) return this.listen(id, params, options, modern);
    return this.run(id, method, params, handler!, options, modern);
  }

  /** Why a request cannot start now: its id belongs to one still in flight, or the connection closed. */
  private refusal(id: RequestId, modern: boolean): Promise<JsonRpcResponse | undefined> | undefined {
    if (this.inflight.has(idKey(id))) return Promise.resolve(errorResponse(id, new InvalidRequestError(`Request id ${clipJson(id)} is already in use by a request in flight`), modern));
    if (this.closed) return Promise.resolve(undefined);
    return undefined;
  }

  /**
   * `subscriptions/listen` (2026-07-28): acknowledges the filter it honours, then relays the
   * matching app events, each tagged with the subscription id, until the client cancels (stdio:
   * notifications/cancelled; HTTP: closing the stream) or the connection closes.
   */
  private listen(id: RequestId, params: Record<string, unknown>, options: ReceiveOptions, modern: ModernRequest): Promise<JsonRpcResponse | undefined> {
    const send = options.send ?? this.outboundChannel;
    if (!send) return Promise.resolve(errorResponse(id, new InvalidRequestError('subscriptions/listen needs a stream to deliver on'), true));
    const honoured = honouredFilter(params.notifications, this.app.capabilities);
    const tag = { [SUBSCRIPTION_ID]: id };
    const ctx = new RequestContext(id, SUBSCRIPTIONS_LISTEN, modern.client, undefined, options.transport ?? this.transport, undefined, options.logger ?? this.logger, { rpcId: id, method: SUBSCRIPTIONS_LISTEN, ...options.logBindings }, send, this, undefined, modern);
    this.inflight.set(idKey(id), ctx);
    send({ jsonrpc: '2.0', method: SUBSCRIPTIONS_ACKNOWLEDGED, params: { _meta: tag, notifications: honoured } });
    return new Promise((resolve) => {
      const unsubscribe = this.app.settings.bus.subscribe((event) => {
        if (event.type === 'listChanged') {
          if (honoured[`${event.list}ListChanged`] === true) send({ jsonrpc: '2.0', method: `notifications/${event.list}/list_changed`, params: { _meta: tag } });
        } else if (Array.isArray(honoured.resourceSubscriptions) && honoured.resourceSubscriptions.includes(event.uri)) {
          send({ jsonrpc: '2.0', method: METHOD.RESOURCE_UPDATED, params: { uri: event.uri, _meta: tag } });
        }
      });
      ctx.signal.addEventListener(
        'abort',
        () => {
          unsubscribe();
          if (this.inflight.get(idKey(id)) === ctx) this.inflight.delete(idKey(id));
          resolve(undefined);
        },
        { once: true },
      );
    });
  }

  private async run(
    id: RequestId,
    method: string,
    params: Record<string, unknown>,
    handler: MethodHandler,
    options: ReceiveOptions,
    modern?: ModernRequest,
  ): Promise<JsonRpcResponse | undefined> {
    const target = targetOf(method, params);
    const bindings: Record<string, unknown> = target === undefined ? { rpcId: id, method } : { rpcId: id, method, target: clip(target) };
    if (options.logBindings !== undefined) Object.assign(bindings, options.logBindings);
    const meta = isObject(params._meta) ? params._meta : undefined;
    const transport = options.transport ?? this.transport;
    // Log lines carry the caller's trace id, so they can be found from its trace.
    const traceparent = meta?.traceparent ?? transport.headers?.traceparent;
    if (traceparent !== undefined) {
      const traceId = traceIdOf(traceparent);
      if (traceId !== undefined) bindings.traceId = traceId;
    }
    const logger = options.logger ?? this.logger;
    const ctx = new RequestContext(id, method, modern ? modern.client : this.client, modern ? undefined : this.session, transport, meta, logger, bindings, options.send, this, options.detach, modern);
    const key = idKey(id);
    this.inflight.set(key, ctx);
    const started = this.logRequests ? performance.now() : 0;
    let response: JsonRpcResponse;
    try {
      let result = handler(params, ctx, this);
      if (result instanceof Promise) result = await result;
      // A handler whose own try/catch swallowed the signal still ends the round: an answer built
      // without the client's input is not the answer the handler would give with it.
      if (modern && ctx.asksPending() && MRTR_METHODS.has(method)) throw new InputRequiredSignal();
      response = { jsonrpc: '2.0', id, result: modern ? shapeModernResult(result as Record<string, unknown>, this.app.infoMeta, this.cacheHint(method, params, ctx)) : (result as Record<string, unknown>) };
    } catch (error) {
      response = this.failure(id, method, target, params, ctx, error, modern);
    } finally {
      // Whatever threw where, the id is free again: the request ends here, exactly once.
      ctx.finish();
      if (this.inflight.get(key) === ctx) this.inflight.delete(key);
    }
    if (ctx.isCancelled) {
      if (this.logRequests) this.logLine(logger, bindings, started, 'cancelled');
      // Cancelled by the client (notifications/cancelled): no response follows. Cut short by the
      // server (shutting down, the session ended): whoever still listens learns why.
      return this.closed ? errorResponse(id, new InternalError('The request was cut short: the server closed this connection (shutting down, or the session ended)'), modern !== undefined) : undefined;
    }
    if (this.logRequests) {
      const outcome = 'error' in response ? `error ${response.error.code}` : (response.result as { isError?: boolean }).isError ? 'tool_error' : 'ok';
      this.logLine(logger, this.app.settings.logArguments && method === METHOD.TOOLS_CALL ? { ...bindings, arguments: params.arguments } : bindings, started, outcome);
    }
    return response;
  }

  /** The answer to a request whose handler threw; building it may throw too, and still gives an answer. */
  private failure(id: RequestId, method: string, target: unknown, params: Record<string, unknown>, ctx: RequestContext, error: unknown, modern: ModernRequest | undefined): JsonRpcResponse {
    try {
      if (modern && (InputRequiredSignal.is(error) || ctx.asksPending()) && MRTR_METHODS.has(method)) {
        // The handler asked the client something: end the round, carrying the answers so far.
        const requestState = this.app.settings.requestState.sign(method, String(target ?? ''), params.arguments ?? null, modern.answers);
        return { jsonrpc: '2.0', id, result: inputRequiredResult(ctx.missing, requestState, this.app.infoMeta) };
      }
      if (!McpError.isMcpError(error) && !ctx.isCancelled) ctx.logger.error({ err: error }, 'request handler threw');
      return errorResponse(id, error, modern !== undefined);
    } catch (secondary) {
      ctx.logger.error({ err: secondary, cause: error }, 'building the error answer failed');
      // A deliberate wire error (arguments too deep to digest for requestState) keeps its code.
      return errorResponse(id, McpError.isMcpError(secondary) ? secondary : new InternalError(), modern !== undefined);
    }
  }

  /** The cache hint of a modern result: per resource, else per method; none for retries' answers. */
  private cacheHint(method: string, params: Record<string, unknown>, ctx: RequestContext): WireCacheHint | undefined {
    const hint = this.app.settings.cacheHints.get(method);
    if (!hint) return undefined;
    // The answer depends on what the user just said: nobody should keep it.
    if (params.requestState !== undefined || params.inputResponses !== undefined) return UNCACHEABLE;
    return resolveCacheHint(ctx.cacheHint(), hint);
  }

  private logLine(logger: Logger, bindings: Record<string, unknown>, started: number, outcome: string): void {
    requestLine(logger, bindings, Math.round((performance.now() - started) * 1000) / 1000, outcome);
  }
}

export type { JsonRpcNotification };
