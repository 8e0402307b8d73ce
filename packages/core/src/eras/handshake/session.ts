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
import { LIST_CHANGED } from '../../model/list-changes';
import type { SessionSnapshot } from '../../model/session-snapshot';
import { OutboundRequests } from './outbound-requests';
import type { OutboundRequestOptions } from '../../model/outbound-request-options';
import { BATCH_REVISION, hasFeature } from './features';
import type { EraApp } from '../era';
import { monotonicMs } from '../../logging/monotonic-ms';
import type { AuthInfo } from '../../auth/auth-info';
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

/**
 * The handshake era's state of one client: what `initialize` negotiated, the client's log level
 * and resource subscriptions, and the requests the server sent it. Only this era creates one; a
 * stateless request never touches it.
 */
export class HandshakeSession {
  private initialized = false;
  private client: ClientInfo = { protocolVersion: LATEST_LEGACY_PROTOCOL_VERSION, capabilities: {} };
  /** Each subscribed URI, with what let the subscriber in (the read rule applies to hearing too). */
  private readonly subscriptions = new Map<string, SubscriptionGrant>();
  private unsubscribeBus: (() => void) | undefined = undefined;
  /** Requests this server sent the client, awaiting answers. */
  readonly outbound: OutboundRequests;
  /** The client-visible log threshold; undefined sends nothing. */
  logLevel: LogLevel | undefined;
  /** When `initialize` was answered (`monotonicMs()`), for the session's duration; undefined before, and for a restored or stateless session. */
  openedAt: number | undefined = undefined;

  constructor(
    private readonly app: EraApp,
    /** Whether a subscriber that `grant` let in may still hear of `uri` (the app's read rules may have changed). */
    private readonly hears: (uri: string, grant: SubscriptionGrant) => boolean,
    /** No session follows (stateless HTTP): what needs one is unavailable. */
    readonly sessionless: boolean,
    /** The state of a session continued from a snapshot (or a stateless request's client). */
    restored: SessionSnapshot | undefined,
    /** What `initialize` declares and which list changes are sent: the app's, or announcing ones. */
    private readonly capabilities: Readonly<ServerCapabilities>,
    private readonly notify: (method: string, params?: Record<string, unknown>) => void,
    /** Relay app events to the client (false: the transport does). */
    appEvents = true,
    outboundIdPrefix?: string,
    /** Who the restored subscriptions belong to: the connection's caller. */
    restoredAuth?: AuthInfo,
  ) {
    this.outbound = new OutboundRequests(outboundIdPrefix);
    this.logLevel = restored?.logLevel ?? app.settings.clientLogging?.defaultLevel;
    if (restored?.client) {
      this.client = Object.freeze({ ...restored.client });
      this.initialized = true;
    }
    // Granted where they were made; held to the read rule again only if the app changes.
    for (const uri of restored?.subscriptions ?? []) this.subscriptions.set(uri, { auth: restoredAuth, pipelines: app.pipelines });
    if (!sessionless && appEvents) this.unsubscribeBus = app.settings.bus.subscribe((event) => this.onAppEvent(event));
  }

  get isInitialized(): boolean {
    return this.initialized;
  }

  get clientInfo(): ClientInfo {
    return this.client;
  }

  /** Why a batch cannot be served on this session, if it cannot. */
  batchRefusal(): string | undefined {
    // Batching exists only in one revision (basic/index, "Batching"); later revisions removed it.
    if (!this.initialized || this.client.protocolVersion !== BATCH_REVISION)
      return `JSON-RPC batches are only accepted after negotiating protocol revision ${BATCH_REVISION}`;
    return undefined;
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
    const result: Record<string, unknown> = {
      protocolVersion: version,
      capabilities: withoutTasksBefore(version, this.sessionless ? sessionlessCapabilities(this.app.capabilities, anonymous) : this.capabilities),
      serverInfo: this.app.view(version).serverInfo,
    };
    if (this.app.instructions !== undefined) result.instructions = this.app.instructions;
    return { jsonrpc: '2.0', id, result };
  }

  /** Sends a request to the client on `send` and waits for its answer. */
  requestClient(
    method: string,
    params: Record<string, unknown>,
    send: ((message: JsonRpcMessage) => void) | undefined,
    options: OutboundRequestOptions,
  ): Promise<Record<string, unknown>> {
    if (this.sessionless || send === undefined) {
      return Promise.reject(new ClientCapabilityError(`${method} needs a session to reach the client: this request is stateless`));
    }
    return this.outbound.request(method, params, send, { timeoutMs: this.app.settings.requestTimeoutMs, ...options });
  }

  /** The URIs the client subscribed to, in subscription order. */
  get subscribedUris(): string[] {
    return [...this.subscriptions.keys()];
  }

  /**
   * `resources/subscribe` (with what let the subscriber in) and `resources/unsubscribe`
   * (undefined). False, and nothing changes, for a new URI once the session follows
   * `maxSubscriptions` (each kept URI may be `maxUriLength` long: the bound is what holds its memory).
   */
  subscribe(uri: string, grant: SubscriptionGrant | undefined): boolean {
    if (grant === undefined) this.subscriptions.delete(uri);
    else if (this.subscriptions.size < this.app.settings.maxSubscriptions || this.subscriptions.has(uri)) this.subscriptions.set(uri, grant);
    else return false;
    return true;
  }

  /** The client is gone: reject what waits for it, stop relaying events. */
  close(): void {
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
      if (grant !== undefined && this.hears(event.uri, grant)) this.notify(METHOD.RESOURCE_UPDATED, { uri: event.uri });
      return;
    }
    if (this.capabilities[event.list]?.listChanged === true) this.notify(LIST_CHANGED[event.list]);
  }
}
