import type { AppEvent } from '../../app/event-bus';
import { ClientCapabilityError } from '../../errors/client-errors';
import { InvalidParamsError, InvalidRequestError } from '../../errors/mcp-error';
import { errorAnswer } from '../../errors/error-answer';
import type { LogLevel } from '../../logging/log-levels';
import { isObject, type JsonRpcMessage, type JsonRpcResponse, type RequestId } from '../../protocol/json-rpc';
import type { ClientCapabilities, Implementation, ServerCapabilities } from '../../protocol/mcp-types';
import { METHOD } from '../../protocol/methods';
import { LATEST_LEGACY_PROTOCOL_VERSION, negotiateProtocolVersion } from '../../protocol/protocol-versions';
import type { ClientInfo } from '../../model/client-info';
import { announcedLists, LIST_CHANGED } from '../../model/list-changes';
import { OutboundRequests } from './outbound-requests';
import type { OutboundRequestOptions } from '../../model/outbound-request-options';
import { BATCH_REVISION, hasFeature } from './features';
import type { SessionHost, SessionOptions, Session } from '../era';
import type { SessionInfo } from '../../model/session-info';
import type { ValidatorFactory } from '../../validation/validator-factory';
import { HandshakeLink } from './handshake-link';
import { RootsCache, rootsOf } from '../roots-cache';
import type { RootsChange, RootsChangedHook } from '../../model/roots-change';
import { monotonicMs } from '../../logging/monotonic-ms';
import type { SubscriptionGrant } from '../../model/subscription-grant';

/**
 * Capabilities without what needs a session to work; for an `anonymous` client (no principal)
 * also without `tasks.list`: its tasks belong to nobody, so no list could ever show one.
 */
function sessionlessCapabilities(capabilities: Readonly<ServerCapabilities>, anonymous: boolean): ServerCapabilities {
  const { logging: _logging, ...rest } = capabilities;
  if (rest.resources) rest.resources = {};
  if (rest.tools) rest.tools = {};
  if (rest.prompts) rest.prompts = {};
  if (rest.tasks && anonymous) {
    const { list: _list, ...tasks } = rest.tasks;
    rest.tasks = tasks;
  }
  return rest;
}

/** The capabilities as `version` has them: `tasks` only from the revision that has tasks. */
function withoutTasksBefore(version: string, capabilities: Readonly<ServerCapabilities>): Readonly<ServerCapabilities> {
  if (capabilities.tasks === undefined || hasFeature(version, 'tasks')) return capabilities;
  const { tasks: _tasks, ...rest } = capabilities;
  return rest;
}

/**
 * What the client declared, as `version` defines it: a revision before elicitation has no
 * `elicitation` capability, so a client that declares it anyway is asked nothing (`ctx.elicit`
 * answers as for a client without it).
 */
function clientCapabilitiesAt(version: string, capabilities: ClientCapabilities): ClientCapabilities {
  if (capabilities.elicitation === undefined || hasFeature(version, 'elicitation')) return capabilities;
  const { elicitation: _elicitation, ...rest } = capabilities;
  return rest;
}

/** The subscriptions of every session that has none yet: never written to. */
const NO_SUBSCRIPTIONS: ReadonlyMap<string, SubscriptionGrant> = new Map();

/**
 * The handshake era's state of one client: what `initialize` negotiated, the client's log level
 * and resource subscriptions, and the requests the server sent it. Only this era's codec opens
 * one (`openSession`), on the channel that holds it; a stateless request never touches it.
 */
export class HandshakeSession implements Session {
  private initialized = false;
  private client: ClientInfo = { protocolVersion: LATEST_LEGACY_PROTOCOL_VERSION, capabilities: {} };
  /**
   * Each subscribed URI, with what let the subscriber in (the read rule applies to hearing too).
   * `NO_SUBSCRIPTIONS` until the first: an idle session holds no empty Map (pnpm bench:scale).
   */
  private subscriptions = NO_SUBSCRIPTIONS as Map<string, SubscriptionGrant>;
  // At maxSubscriptions since the last refused subscribe (its warning is logged).
  private subscriptionsFull = false;
  // onRootsChanged: whether a run is under way, and whether a change arrived meanwhile.
  private rootsHookRunning = false;
  private rootsHookAgain = false;
  private unsubscribeBus: (() => void) | undefined = undefined;
  private currentLink: HandshakeLink | undefined = undefined;
  private readonly options: SessionOptions;
  /** Requests this server sent the client, awaiting answers. */
  readonly outbound: OutboundRequests;
  /** The client's roots, kept until it says they changed. */
  readonly rootsCache: RootsCache;
  /** No session follows (stateless HTTP): what needs one is unavailable. */
  readonly sessionless: boolean;
  /** The client-visible log threshold; undefined sends nothing. */
  logLevel: LogLevel | undefined;
  /** When `initialize` was answered (`monotonicMs()`), for the session's duration; undefined before, and for a restored or stateless session. */
  openedAt: number | undefined = undefined;

  constructor(private readonly host: SessionHost) {
    const { app } = host;
    const options = host.sessionOptions;
    this.options = options;
    this.sessionless = options.sessionless === true;
    const restored = options.restore;
    this.outbound = new OutboundRequests(options.outboundIdPrefix);
    this.rootsCache = new RootsCache(app.settings.rootsTimeoutMs);
    this.logLevel = restored?.logLevel ?? app.settings.clientLogging?.defaultLevel;
    if (restored?.client) {
      this.client = Object.freeze({ ...restored.client });
      this.initialized = true;
    }
    // Granted where they were made, to the channel's caller; held to the read rule again only if the app changes.
    for (const uri of restored?.subscriptions ?? []) this.follow(uri, { auth: host.transport.auth, pipelines: app.pipelines });
    if (!this.sessionless && options.appEvents !== false) this.unsubscribeBus = app.settings.bus.subscribe((event) => this.onAppEvent(event));
  }

  get isInitialized(): boolean {
    return this.initialized;
  }

  get clientInfo(): ClientInfo {
    return this.client;
  }

  /** The link of the session's current client (a new one after `initialize`): also the run plan of its requests. */
  get link(): HandshakeLink {
    if (this.currentLink === undefined || this.currentLink.client !== this.client) this.currentLink = new HandshakeLink(this);
    return this.currentLink;
  }

  /** The transport's session (its id on HTTP). */
  get session(): SessionInfo {
    return this.host.session;
  }

  get isSessionless(): boolean {
    return this.sessionless;
  }

  /** The app's validators (elicitation schemas compile there, once). */
  get validators(): ValidatorFactory {
    return this.host.app.settings.validators;
  }

  /** Why a batch cannot be served on this session, if it cannot. */
  batchRefusal(): string | undefined {
    // Batching exists only in one revision (basic/index, "Batching"); later revisions removed it.
    if (!this.initialized || this.client.protocolVersion !== BATCH_REVISION)
      return `JSON-RPC batches are only accepted after negotiating protocol revision ${BATCH_REVISION}`;
    return undefined;
  }

  settle(response: Record<string, unknown>): boolean {
    // Any answer, even a late one, shows the client is listening: roots may be asked again.
    this.rootsCache.revive();
    return this.outbound.settle(response);
  }

  progress(token: unknown): boolean {
    return this.outbound.progress(token);
  }

  /** Answers `initialize`: negotiates the revision and keeps what the client declared. `anonymous`: the request has no principal. */
  initialize(id: RequestId, params: Readonly<Record<string, unknown>>, anonymous: boolean): JsonRpcResponse {
    if (this.initialized) return errorAnswer(id, new InvalidRequestError('This connection is already initialized'));
    const { protocolVersion, capabilities, clientInfo } = params;
    if (typeof protocolVersion !== 'string') return errorAnswer(id, new InvalidParamsError('initialize needs params.protocolVersion, a string'));
    if (capabilities !== undefined && !isObject(capabilities))
      return errorAnswer(id, new InvalidParamsError('initialize params.capabilities must be an object'));
    if (clientInfo !== undefined && !isObject(clientInfo)) return errorAnswer(id, new InvalidParamsError('initialize params.clientInfo must be an object'));
    const version = negotiateProtocolVersion(protocolVersion);
    this.client = Object.freeze({
      protocolVersion: version,
      capabilities: clientCapabilitiesAt(version, (capabilities ?? {}) as ClientCapabilities),
      info: clientInfo as Implementation | undefined,
    });
    this.initialized = true;
    if (!this.sessionless) this.openedAt = monotonicMs();
    const { app } = this.host;
    const result: Record<string, unknown> = {
      protocolVersion: version,
      capabilities: withoutTasksBefore(version, this.sessionless ? sessionlessCapabilities(app.capabilities, anonymous) : this.host.capabilities),
      serverInfo: app.view(version).serverInfo,
    };
    if (app.instructions !== undefined) result.instructions = app.instructions;
    return { jsonrpc: '2.0', id, result };
  }

  /** Sends a request to the client on `via` (the asking request's stream) or the channel's sink, and waits for its answer. */
  requestClient(
    method: string,
    params: Record<string, unknown>,
    via: ((message: JsonRpcMessage) => void) | undefined,
    options: OutboundRequestOptions,
  ): Promise<Record<string, unknown>> {
    return this.host.traceRequest(method, params, (sent) => {
      const send = via ?? this.host.outboundChannel;
      if (this.sessionless || send === undefined) {
        return Promise.reject(new ClientCapabilityError(`${method} needs a session to reach the client: this request is stateless`));
      }
      return this.outbound.request(method, sent, send, { timeoutMs: this.host.app.settings.requestTimeoutMs, ...options });
    });
  }

  /** Sends a notification on the channel's outbound sink. */
  notify(method: string, params?: Record<string, unknown>): void {
    this.host.notify(method, params);
  }

  /** The URIs the client subscribed to, in subscription order. */
  get subscribedUris(): string[] {
    return [...this.subscriptions.keys()];
  }

  /** The client's `logging/setLevel`: sets the threshold, and settles once a store that shares it has it. */
  setLogLevel(level: LogLevel | undefined): void | Promise<void> {
    const changed = this.logLevel !== level;
    this.logLevel = level;
    return changed ? this.options.onLogLevel?.(level) : undefined;
  }

  /**
   * `resources/subscribe` (with what let the subscriber in) and `resources/unsubscribe`
   * (undefined). A new URI once the session follows `maxSubscriptions` is refused (each kept URI
   * may be `maxUriLength` long: the bound is what holds its memory).
   */
  subscribe(uri: string, grant: SubscriptionGrant | undefined): void | Promise<void> {
    const limit = this.host.app.settings.maxSubscriptions;
    if (grant === undefined) this.subscriptions.delete(uri);
    else if (this.subscriptions.size < limit || this.subscriptions.has(uri)) this.follow(uri, grant);
    else {
      // One line each time the session fills up, not one per refused subscribe.
      if (!this.subscriptionsFull) this.host.logger.warn({ limit }, 'refused a resources/subscribe over maxSubscriptions');
      this.subscriptionsFull = true;
      throw new InvalidParamsError(
        `Too many subscriptions: this session is already subscribed to ${limit} resources (maxSubscriptions); unsubscribe from one first`,
        { limit },
      );
    }
    this.subscriptionsFull = false;
    return this.options.onSubscription?.(uri, grant !== undefined);
  }

  announceListChanges(): void {
    if (this.sessionless || !this.initialized) return;
    for (const list of announcedLists(this.host.capabilities)) this.notify(LIST_CHANGED[list]);
  }

  /**
   * `notifications/roots/list_changed`: the kept roots go, and the app's hook hears of it, once:
   * on the instance the client sent it to, not on those it was routed to (scale-out). One run of
   * the hook at a time per session: notifications that arrive while it runs are folded into one
   * more run after it settles (a storm of them is not a storm of hook runs and roots/list requests).
   */
  notified(method: string, routed: boolean): void {
    if (method !== METHOD.ROOTS_LIST_CHANGED || !this.initialized) return;
    this.rootsCache.invalidate();
    const hook = this.host.app.settings.onRootsChanged;
    if (hook === undefined || routed) return;
    if (this.rootsHookRunning) this.rootsHookAgain = true;
    else this.runRootsHook(hook);
  }

  private runRootsHook(hook: RootsChangedHook): void {
    this.rootsHookRunning = true;
    const change: RootsChange = {
      session: this.session,
      client: this.client,
      roots: async () => {
        // A client may send the notification without having declared roots: it is not asked.
        if (!isObject(this.client.capabilities.roots)) {
          throw new ClientCapabilityError(`The client did not declare the roots capability, so ${METHOD.ROOTS_LIST} cannot be sent`);
        }
        return this.rootsCache.get(async (timeoutMs) =>
          rootsOf(await this.requestClient(METHOD.ROOTS_LIST, {}, undefined, { timeoutMs, maxTotalTimeoutMs: timeoutMs })),
        );
      },
    };
    const failed = (error: unknown) => this.host.logger.error({ err: error }, 'onRootsChanged threw');
    const settled = () => {
      this.rootsHookRunning = false;
      if (!this.rootsHookAgain) return;
      this.rootsHookAgain = false;
      this.runRootsHook(hook);
    };
    let running: unknown;
    try {
      running = hook(change);
    } catch (error) {
      failed(error);
    }
    if (running instanceof Promise) running.catch(failed).finally(settled);
    else settled();
  }

  /** The client is gone: reject what waits for it, stop relaying events. */
  private follow(uri: string, grant: SubscriptionGrant): void {
    if (this.subscriptions === NO_SUBSCRIPTIONS) this.subscriptions = new Map();
    this.subscriptions.set(uri, grant);
  }

  close(): void {
    this.rootsHookAgain = false;
    this.outbound.closeAll();
    this.unsubscribeBus?.();
    this.unsubscribeBus = undefined;
    this.subscriptions.clear();
  }

  private onAppEvent(event: AppEvent): void {
    if (!this.initialized) return;
    // 2025-11-25 sessions hear of their tasks from notifications/tasks/status, sent by the task itself.
    if (event.type === 'taskStatus') return;
    if (event.type === 'resourceUpdated') {
      const grant = this.subscriptions.get(event.uri);
      if (grant !== undefined && this.host.hears(event.uri, grant)) this.notify(METHOD.RESOURCE_UPDATED, { uri: event.uri });
      return;
    }
    if (this.host.capabilities[event.list]?.listChanged === true) this.notify(LIST_CHANGED[event.list]);
  }
}
