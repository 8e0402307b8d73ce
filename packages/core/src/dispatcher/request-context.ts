import { checkCacheHint, overlayCacheHint, type CacheHint } from '../results/cache-hints';
import { readTraceContext, type TraceContext } from './trace-context';
import { passes, type LogLevel } from '../logging/log-levels';
import type { Logger } from '../logging/logger';
import type { Constructor } from '../metadata/constructor';
import type { JsonRpcMessage, RequestId } from '../protocol/json-rpc';
import type { JsonSchema, Meta } from '../protocol/mcp-types';
import { METHOD } from '../protocol/methods';
import type { ClientInfo } from '../model/client-info';
import { elicitationSchema } from '../schema/elicitation-schema';
import { ClientLog } from './client-log';
import type { ClientLink, SessionInfo } from '../eras/client-link';
import type { OutboundRequestOptions } from '../model/outbound-request-options';
import type { TaskHandle } from './task-handle';
import type { TaskDialect } from '../eras/task-dialect';
import type { AuthInfo } from '../auth/auth-info';
import { principalOf } from '../auth/principal';
import {
  elicitOutcome,
  isElicitAnswer,
  isSamplingResult,
  samplingParams,
  type AskOptions,
  type ElicitResult,
  type Root,
  type SamplingRequest,
  type SamplingResult,
} from './client-questions';
import { RequestSignal } from './request-signal';
import type { TransportInfo } from '../model/transport-info';

/** @internal What a transport and the dispatcher give the context of one request. */
export interface RequestContextInit {
  requestId: RequestId;
  method: string;
  /** How the request reaches its client: the era's part of the context. */
  link: ClientLink;
  transport: TransportInfo;
  meta: Meta | undefined;
  logger: Logger;
  /** The fields of `ctx.logger`'s lines (the request's id, method and target). */
  logBindings: Record<string, unknown>;
  /** The request's own stream for related messages, when it has one. */
  send?: ((message: JsonRpcMessage) => void) | undefined;
  /** Closes the HTTP connection without ending the stream (SSE polling). */
  detach?: (() => void) | undefined;
  /** The task the request runs as, when it runs as one. */
  task?: TaskHandle | undefined;
}

/**
 * Everything a handler may know or do about the request it serves: its handler's second argument.
 *
 * @example
 * @Tool()
 * async slow(input: SlowInput, ctx: RequestContext) {
 *   ctx.logger.debug({ ms: input.ms }, 'sleeping');
 *   await sleep(input.ms, ctx.signal);
 * }
 */
export class RequestContext {
  private childLogger: Logger | undefined = undefined;
  private clientLog: ClientLog | undefined = undefined;
  private lastProgress = -Infinity;
  private done = false;
  private readonly aborts = new RequestSignal();
  private readonly baseLogger: Logger;
  private readonly logBindings: Record<string, unknown>;
  private readonly detachTransport: (() => void) | undefined;
  private readonly link: ClientLink;
  /** The JSON-RPC id of the request. */
  readonly requestId: RequestId;
  /** The JSON-RPC method (`tools/call`, `resources/read` …). */
  readonly method: string;
  /** The client: protocol revision, capabilities and info. */
  readonly client: ClientInfo;
  /** The legacy-era session, when there is one. Never rely on it: stateless requests have none. */
  readonly session: SessionInfo | undefined;
  readonly transport: TransportInfo;
  /** The request's `params._meta`, if any. */
  readonly meta: Meta | undefined;
  /** @internal The request's own stream for related messages (progress, logs, questions). */
  readonly send: ((message: JsonRpcMessage) => void) | undefined;
  /** The task this call runs as, when the client asked for one (`@Tool({ task })`); undefined otherwise. */
  readonly task: TaskHandle | undefined;

  /** @internal Built by the dispatcher, once per request. */
  constructor(init: RequestContextInit) {
    this.requestId = init.requestId;
    this.method = init.method;
    this.link = init.link;
    this.client = init.link.client;
    this.session = init.link.session;
    this.transport = init.transport;
    this.meta = init.meta;
    this.baseLogger = init.logger;
    this.logBindings = init.logBindings;
    this.send = init.send;
    this.detachTransport = init.detach;
    this.task = init.task;
  }

  /** @internal How the era of this request speaks tasks. */
  get taskDialect(): TaskDialect {
    return this.link.tasks;
  }

  /**
   * @internal Whose tasks this request sees: the authenticated caller's when there is one (on
   * either era, across sessions), else its link's (the session; none on a stateless request).
   */
  get taskOwner(): string | undefined {
    const principal = principalOf(this.auth);
    return principal === undefined ? this.link.taskOwner : `principal ${principal}`;
  }

  /** @internal How this request reaches its client (a task's link wraps it). */
  get clientLink(): ClientLink {
    return this.link;
  }

  /**
   * @internal The context of the task this request starts: the same request, another link and
   * stream, its own signal, and a lifetime of its own.
   */
  forTask(task: TaskHandle, link: ClientLink, send: (message: JsonRpcMessage) => void): RequestContext {
    return new RequestContext({
      requestId: this.requestId,
      method: this.method,
      link,
      transport: this.transport,
      meta: this.meta,
      logger: this.baseLogger,
      logBindings: { ...this.logBindings, taskId: task.id },
      send,
      task,
    });
  }

  private hint: CacheHint | undefined = undefined;

  /** @internal What the request line reports when the answer alone cannot tell (`hidden`, `rate_limited`). */
  outcome: string | undefined = undefined;

  /** @internal True once an access rule or guard let this caller through (the `allow` of a span's access decision). */
  authorized = false;

  /**
   * Who is calling, when the transport knows: the subject, client, scopes and claims of a
   * verified credential (never the credential itself). Undefined for anonymous callers.
   *
   * @example
   * if (!ctx.auth?.scopes.includes('notes:write')) return 'read-only';
   */
  get auth(): AuthInfo | undefined {
    return this.transport.auth;
  }

  /**
   * @internal True on a later round of a 2026-07-28 input-required exchange (its `requestState`
   * verified): the call was counted on its first round, as one legacy-era call that asks its
   * client is counted once.
   */
  get isContinuation(): boolean {
    return this.link.continues === true;
  }

  /**
   * Sets how long 2026-07-28 clients may keep this answer and who may share it, over the hint the
   * resource declares (only `resources/read` results carry one). Say `private` when this answer
   * depends on the caller.
   *
   * @example
   * ctx.setCacheHint({ scope: 'private' });
   */
  setCacheHint(hint: CacheHint): void {
    checkCacheHint(hint, `ctx.setCacheHint on ${this.method}`);
    // An explicit `undefined` leaves the declared value in place rather than erasing it.
    this.hint = overlayCacheHint(this.hint, hint);
  }

  /** @internal Set by resources/read: the hint the resource that answered declares. */
  declaredCacheHint: CacheHint | undefined = undefined;

  /** @internal The handler's hint over the declared one. */
  cacheHint(): CacheHint | undefined {
    const declared = this.declaredCacheHint;
    return this.hint === undefined ? declared : declared === undefined ? this.hint : { ...declared, ...this.hint };
  }

  /**
   * Lets go of the client's connection while the work goes on (SSE polling, 2025-11-25): on
   * Streamable HTTP sessions the response stream is closed after an event id, the client
   * reconnects with `Last-Event-ID` and gets everything after it, the result included. Useful
   * for long calls behind proxies that cut idle connections. Returns false where the transport
   * cannot do it (stdio, stateless HTTP), and nothing changes.
   */
  releaseConnection(): boolean {
    if (!this.detachTransport || this.done) return false;
    this.detachTransport();
    return true;
  }

  /** Aborted when the client cancels the request, the connection closes, or a timeout hits. */
  get signal(): AbortSignal {
    return this.aborts.signal;
  }

  private traced: TraceContext | null | undefined = undefined;

  /**
   * The caller's W3C trace context (`traceparent`, `tracestate`, `baggage` from `_meta`, or over
   * HTTP from the headers), to continue its trace; `undefined` when it sent none or an invalid one.
   *
   * @example
   * const parent = ctx.trace?.traceparent;
   */
  get trace(): TraceContext | undefined {
    if (this.traced === undefined) this.traced = readTraceContext(this.meta, this.transport.headers) ?? null;
    return this.traced ?? undefined;
  }

  /** True once the request was cancelled (by the client or the connection closing). */
  get isCancelled(): boolean {
    return this.aborts.cancelled;
  }

  /** @internal Cancels the request: aborts `signal` (now, or when first read). */
  cancel(reason: Error): void {
    this.aborts.cancel(reason);
  }

  /** The server's own log for this request: a pino child with the request's id and target. */
  get logger(): Logger {
    // Created on first use: most requests never log, and a child costs an allocation.
    this.childLogger ??= this.baseLogger.child(this.logBindings);
    return this.childLogger;
  }

  /** Client-visible logging (`notifications/message`), filtered by the level the client set. */
  get log(): ClientLog {
    this.clientLog ??= new ClientLog((level, data, logger) => this.emitLog(level, data, logger));
    return this.clientLog;
  }

  /** The request's `_meta.progressToken`, when the client asked for progress. */
  get progressToken(): string | number | undefined {
    const token = this.meta?.progressToken;
    return typeof token === 'string' || typeof token === 'number' ? token : undefined;
  }

  /**
   * Reports progress to the client (`notifications/progress`), if it asked for it with a
   * progress token; otherwise does nothing. Values must increase: a value not above the last
   * one is dropped, as is anything after the handler has returned.
   *
   * @example
   * for (const [i, file] of files.entries()) {
   *   await index(file);
   *   ctx.progress(i + 1, files.length, `indexed ${file}`);
   * }
   */
  progress(progress: number, total?: number, message?: string): void {
    const token = this.progressToken;
    if (token === undefined || this.done || this.aborts.cancelled) return;
    if (!(progress > this.lastProgress)) {
      this.logger.debug({ progress, last: this.lastProgress }, 'progress must increase; update dropped');
      return;
    }
    this.lastProgress = progress;
    const params: Record<string, unknown> = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined && this.link.progressMessages) params.message = message;
    this.related({ jsonrpc: '2.0', method: METHOD.PROGRESS, params });
  }

  /**
   * Asks the client's model for a completion (`sampling/createMessage`). Needs the client's
   * `sampling` capability and a session.
   *
   * @throws ClientCapabilityError, RequestTimeoutError, ClientRequestError
   * @example
   * const answer = await ctx.sample(`Summarise: ${text}`, { maxTokens: 200 });
   */
  async sample(request: string | SamplingRequest, options: AskOptions & { maxTokens?: number } = {}): Promise<SamplingResult> {
    this.link.requireCapability('sampling', METHOD.SAMPLING_CREATE_MESSAGE);
    return (await this.ask(
      METHOD.SAMPLING_CREATE_MESSAGE,
      samplingParams(request, options.maxTokens),
      options,
      'sampling',
      isSamplingResult,
    )) as SamplingResult;
  }

  /**
   * Asks the user for structured input (form elicitation). The DTO (flat primitive fields) or
   * raw schema becomes the `requestedSchema`; an accepted answer comes back validated, as a DTO
   * instance when a DTO was given.
   *
   * @throws ClientCapabilityError, RequestTimeoutError, ClientRequestError, ToolError (an answer that breaks the schema)
   * @example
   * const answer = await ctx.elicit('Which account?', AccountChoice);
   * if (answer.action !== 'accept') return 'Cancelled.';
   * return transfer(answer.content.account);
   */
  async elicit<T = Record<string, unknown>>(message: string, schema: Constructor<T> | JsonSchema, options: AskOptions = {}): Promise<ElicitResult<T>> {
    this.link.requireCapability('elicitation', METHOD.ELICITATION_CREATE);
    const { schema: requestedSchema, parse } = elicitationSchema(this.link.validators, schema as Constructor | JsonSchema);
    // `mode` arrived with URL elicitation; older clients know forms only.
    const params: Record<string, unknown> = this.link.elicitationModes ? { mode: 'form', message, requestedSchema } : { message, requestedSchema };
    const result = await this.ask(METHOD.ELICITATION_CREATE, params, options, 'elicitation', isElicitAnswer);
    return elicitOutcome<T>(result, parse, message);
  }

  /**
   * Sends the user to a URL (URL-mode elicitation), e.g. to sign in somewhere. Needs the client's
   * `elicitation.url` capability. On the legacy era (2025-11-25) it is an `elicitation/create`
   * request with a fresh `elicitationId`; call `completeElicitation(id)` when the out-of-band step
   * is done. On 2026-07-28 it is a question of an input-required round like `ctx.elicit`
   * (`{ mode: "url", message, url }`, no id on the wire): `elicitationId` is the question's key,
   * and the client's retry is the moment to check that the step really happened.
   *
   * @throws ClientCapabilityError (legacy era), MissingRequiredClientCapabilityError (`-32021`, 2026-07-28)
   * @example
   * const answer = await ctx.elicitUrl('Sign in to the calendar', authorizeUrl, { key: 'sign-in' });
   * if (answer.action !== 'accept' || !(await tokens.has(user))) return 'Not signed in.';
   */
  elicitUrl(message: string, url: string, options: AskOptions = {}): Promise<{ action: 'accept' | 'decline' | 'cancel'; elicitationId: string }> {
    const { key, ...timing } = options;
    return this.link.askUrl(message, url, key, timing, this);
  }

  /**
   * Tells the client a URL elicitation finished (`notifications/elicitation/complete`). On
   * 2026-07-28 it does nothing: that revision has no such notification (nor a stream to send it
   * on); the client learns the outcome from the result of its retry.
   */
  completeElicitation(elicitationId: string): void {
    this.link.completeElicitation(elicitationId);
  }

  /**
   * The client's roots (`roots/list`). Needs the client's `roots` capability.
   *
   * @example
   * const [workspace] = await ctx.roots();
   */
  async roots(options: AskOptions = {}): Promise<Root[]> {
    this.link.requireCapability('roots', METHOD.ROOTS_LIST);
    const result = await this.ask(METHOD.ROOTS_LIST, {}, options, 'roots', (answer) => Array.isArray(answer.roots));
    return Array.isArray(result.roots) ? (result.roots as Root[]) : [];
  }

  /** Pings the client; resolves when it answers. */
  ping(options: OutboundRequestOptions = {}): Promise<void> {
    return this.link.ping(options, this);
  }

  /**
   * @internal Adds a deadline: `signal` also aborts after `ms`. Returns a promise that rejects
   * at the deadline and a function that clears it.
   */
  deadline(ms: number, error: () => Error): { expired: Promise<never>; clear: () => void } {
    return this.aborts.deadline(ms, error);
  }

  /** @internal Marks the handler as returned: nothing more may be sent for this request. */
  finish(): void {
    this.done = true;
  }

  /** Asks the client the era's way: a request, or a question of an input-required round. */
  private ask(
    method: string,
    params: Record<string, unknown>,
    options: AskOptions,
    kind: string,
    usable: (answer: Record<string, unknown>) => boolean,
  ): Promise<Record<string, unknown>> {
    const { key, beforeTask, ...timing } = options;
    return this.link.ask({ method, params, key, kind, usable, beforeTask }, timing, this);
  }

  private related(message: JsonRpcMessage): void {
    if (this.send) this.send(message);
    else if ('method' in message && !('id' in message)) this.link.notify(message.method, message.params);
  }

  private emitLog(level: LogLevel, data: unknown, logger?: string): void {
    // Stateless requests opt in per request (`_meta` logLevel); session ones follow logging/setLevel.
    const threshold = this.link.logThreshold();
    if (threshold === undefined || this.done || !passes(level, threshold)) return;
    const params: Record<string, unknown> = { level, data };
    if (logger !== undefined) params.logger = logger;
    this.related({ jsonrpc: '2.0', method: METHOD.LOG_MESSAGE, params });
  }
}
