import { MODERN_PROTOCOL_VERSIONS, type ServerCapabilities } from '@mcpkit/core';
import {
  MAX_TIMER_MS,
  MODERN_META as META,
  SERVER_DISCOVER,
  SUBSCRIPTIONS_ACKNOWLEDGED,
  SUBSCRIPTIONS_LISTEN,
  isObject,
  unrefTimer,
} from '@mcpkit/core/transport';
import type { CallOptions } from '../call-options';
import { ClientErrorCode, McpClientError } from '../client-error';
import { answerServerRequest } from '../rpc-peer';
import type { RelatedCall } from '../server-requests';
import { describeServer, type ClientEra, type EraContext, type ServerDescription } from './client-era';
import { modernHeaders } from './modern-headers';
import { ParamHeaders } from './param-headers';
import { sharedMeta } from '../transports/encode-request';

/** The list-changed notifications a listen asks for, by capability. */
const LIST_CHANGES = [
  ['tools', 'toolsListChanged'],
  ['prompts', 'promptsListChanged'],
  ['resources', 'resourcesListChanged'],
] as const;

/** The methods whose result may be input-required (protocol.md §7.2). */
const ASKING = new Set(['tools/call', 'prompts/get', 'resources/read']);

/**
 * The modern era (2026-07-28): no handshake. `server/discover` says what the server is; every
 * request carries the revision, the client's capabilities and info (and its log level) in
 * `_meta`; an input-required result is answered by the same handlers that answer the legacy
 * era's requests of the server, and the request sent again with a new id, `inputResponses` and
 * the `requestState`, up to `maxInputRounds` times. A request is cancelled by closing its stream
 * over HTTP, with `notifications/cancelled` over stdio. Resource updates come on a
 * `subscriptions/listen` request the era keeps open while something is subscribed.
 */
export class ModernEra implements ClientEra {
  readonly name = 'modern';
  private meta: Readonly<Record<string, unknown>> = {};
  // What every request's `_meta` gains (the meta, and the log level once set): made and encoded
  // once, not per request (`sharedMeta`); requests without `_meta` of their own all share it.
  private requestMeta: Readonly<Record<string, unknown>> = {};
  private logLevel: string | undefined;
  private readonly subscribed = new Set<string>();
  private listening: AbortController | undefined;
  private relisten: NodeJS.Timeout | undefined;
  private readonly flags = new Set<string>();
  private closed = false;
  private readonly paramHeaders = new ParamHeaders();
  private capabilities: ServerCapabilities = {};

  constructor(private readonly context: EraContext) {}

  async open(version = this.context.protocolVersion ?? MODERN_PROTOCOL_VERSIONS[0]): Promise<ServerDescription> {
    const { peer, transport } = this.context;
    this.meta = sharedMeta({
      [META.PROTOCOL_VERSION]: version,
      [META.CLIENT_CAPABILITIES]: this.context.capabilities,
      [META.CLIENT_INFO]: this.context.clientInfo,
    });
    this.requestMeta = this.withLogLevel();
    transport.setProtocolVersion(version);
    transport.setMessageHeaders?.((message) => modernHeaders(message, (tool, args) => this.paramHeaders.headersOf(tool, args)));
    peer.cancelParams = (requestId, reason) => (transport.kind === 'http' ? undefined : { requestId, reason, _meta: this.meta });
    const discovered = await peer.request(SERVER_DISCOVER, { _meta: this.meta }, { timeoutMs: this.context.openTimeoutMs });
    const supported = discovered.supportedVersions;
    if (Array.isArray(supported) && !supported.includes(version)) {
      const common = MODERN_PROTOCOL_VERSIONS.find((known) => supported.includes(known));
      if (common === undefined) throw unsupported(supported);
      return this.open(common);
    }
    const serverInfo = isObject(discovered._meta) ? discovered._meta[META.SERVER_INFO] : undefined;
    const server = describeServer(version, discovered.capabilities, serverInfo, discovered.instructions);
    this.capabilities = server.capabilities;
    return server;
  }

  async request(method: string, params: Record<string, unknown> | undefined, options: CallOptions = {}): Promise<Record<string, unknown>> {
    const own = params?._meta as Record<string, unknown> | undefined;
    // Copied, then given its key: a spread and a key in one literal take V8's slow path.
    const base: Record<string, unknown> = Object.assign({}, params);
    base._meta = own === undefined ? this.requestMeta : { ...own, ...this.requestMeta };
    let result = await this.context.peer.request(method, base, options);
    for (let round = 0; result.resultType === 'input_required' && ASKING.has(method); round++) {
      if (round >= this.context.maxInputRounds) {
        throw new McpClientError(ClientErrorCode.TooManyInputRounds, `${method} still asked for input after ${round} rounds (maxInputRounds)`, {
          limit: round,
        });
      }
      const inputResponses = await this.answer(method, result.inputRequests, options.signal, { method, tag: options.tag });
      const retry = { ...base, inputResponses, ...(result.requestState === undefined ? {} : { requestState: result.requestState }) };
      result = await this.context.peer.request(method, retry, options);
    }
    if (method === 'tools/list') result = { ...result, tools: this.paramHeaders.learn(result.tools) };
    return result;
  }

  /** The level every following request carries in its `_meta` (no `logging/setLevel` in this era). */
  setLogLevel(level: string): Promise<void> {
    this.logLevel = level;
    this.requestMeta = this.withLogLevel();
    return Promise.resolve();
  }

  private withLogLevel(): Readonly<Record<string, unknown>> {
    return this.logLevel === undefined ? this.meta : sharedMeta({ ...this.meta, [META.LOG_LEVEL]: this.logLevel });
  }

  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    return this.context.peer.notify(method, { ...params, _meta: { ...(params?._meta as Record<string, unknown> | undefined), ...this.meta } });
  }

  subscribe(uri: string): Promise<void> {
    this.subscribed.add(uri);
    return this.listen();
  }

  unsubscribe(uri: string): Promise<void> {
    this.subscribed.delete(uri);
    return this.listen();
  }

  watch(method: string): void {
    const before = this.flags.size;
    for (const [kind, flag] of LIST_CHANGES) {
      const capability = (this.capabilities as Record<string, unknown>)[kind];
      const wanted = method === '*' || method === `notifications/${kind}/list_changed`;
      if (wanted && isObject(capability) && capability.listChanged === true) this.flags.add(flag);
    }
    if (this.flags.size !== before) this.listen().catch((error: unknown) => this.context.report(error as McpClientError));
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.relisten);
    this.listening?.abort();
  }

  /**
   * (Re)opens the one listen request for what is wanted now (the subscribed resources, the list
   * changes listened to); resolves once the server acknowledged it. A listen the server ends
   * while still wanted is opened again after `relistenDelayMs`.
   */
  private async listen(): Promise<void> {
    this.listening?.abort();
    this.listening = undefined;
    if ((this.subscribed.size === 0 && this.flags.size === 0) || this.closed) return;
    const controller = new AbortController();
    this.listening = controller;
    const notifications: Record<string, unknown> = {};
    for (const flag of this.flags) notifications[flag] = true;
    if (this.subscribed.size > 0) notifications.resourceSubscriptions = [...this.subscribed];
    const { peer } = this.context;
    await new Promise<void>((resolve, reject) => {
      let acknowledged = false;
      const stop = peer.on(SUBSCRIPTIONS_ACKNOWLEDGED, () => {
        stop();
        acknowledged = true;
        resolve();
      });
      const ended = (error?: unknown) => {
        stop();
        if (controller.signal.aborted || peer.closeReason) return;
        if (!acknowledged) {
          reject(error ?? new McpClientError(ClientErrorCode.ConnectionClosed, 'the server ended the listen request before acknowledging it'));
          return;
        }
        this.relisten = unrefTimer(
          setTimeout(() => {
            if (this.listening === controller) this.listen().catch((failure: unknown) => this.context.report(failure as McpClientError));
          }, this.context.relistenDelayMs),
        );
      };
      peer
        .request(SUBSCRIPTIONS_LISTEN, { notifications, _meta: this.meta }, { signal: controller.signal, timeoutMs: MAX_TIMER_MS })
        .then(() => ended(), ended);
    });
  }

  /** The answers to the questions of an input-required result, by key, from the handlers. */
  private async answer(method: string, requests: unknown, signal: AbortSignal | undefined, call: RelatedCall): Promise<Record<string, unknown>> {
    const answers: Record<string, unknown> = {};
    if (!isObject(requests)) return answers;
    // Each question may reach a person (an elicitation) or a model (sampling): a server asks for a bounded number.
    const count = Object.keys(requests).length;
    const limit = this.context.maxServerRequests;
    if (count > limit) throw McpClientError.invalid(method, `it asks ${count} questions at once, over the ${limit} of maxServerRequests`);
    for (const [key, request] of Object.entries(requests)) {
      if (!isObject(request) || typeof request.method !== 'string')
        throw McpClientError.invalid('an input-required result', `its request ${key} has no method`);
      const params = isObject(request.params) ? request.params : {};
      const answer = await answerServerRequest(this.context.handlers, request.method, params, signal ?? new AbortController().signal, call);
      if ('error' in answer) throw McpClientError.fromWire(answer.error, request.method);
      answers[key] = answer.result;
    }
    return answers;
  }
}

function unsupported(supported: unknown[]): McpClientError {
  return new McpClientError(
    ClientErrorCode.UnsupportedProtocolVersion,
    `the server speaks ${supported.join(', ')}, none of which this client speaks in its modern era`,
    {
      supported,
    },
  );
}
