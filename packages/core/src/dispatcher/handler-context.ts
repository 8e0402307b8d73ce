import { checkCacheHint, overlayCacheHint, type CacheHint } from '../results/cache-hints';
import { readTraceContext } from './trace-context';
import { passes, type LogLevel } from '../logging/log-levels';
import type { Logger } from '../logging/logger';
import type { Constructor } from '../metadata/constructor';
import type { JsonRpcMessage, RequestId } from '../protocol/json-rpc';
import type { JsonSchema, Meta } from '../protocol/mcp-types';
import { METHOD } from '../protocol/methods';
import type { ClientInfo } from '../model/client-info';
import { elicitationSchema } from '../schema/elicitation-schema';
import { ClientLog } from '../model/client-log';
import type { ClientLink } from '../eras/client-link';
import { isRootsAnswer, rootsOf } from '../eras/roots-cache';
import type { OutboundRequestOptions } from '../model/outbound-request-options';
import type { TaskHandle } from '../model/task-handle';
import type { TaskDialect } from '../eras/task-dialect';
import type { AuthInfo } from '../auth/auth-info';
import { principalOf } from '../auth/principal';
import { elicitOutcome, isElicitAnswer, isSamplingResult, samplingParams } from './client-questions';
import type { AskOptions, ElicitResult, Root, SamplingRequest, SamplingResult } from '../model/client-questions';
import type { RequestContext } from '../model/request-context';
import type { SessionInfo } from '../model/session-info';
import type { TraceContext } from '../model/trace-context';
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
 * The context the dispatcher builds for one request: the public `RequestContext` (documented on
 * the interface, model/request-context.ts) and what the dispatcher, the pipeline and the eras
 * read and set behind it.
 */
export class HandlerContext implements RequestContext {
  private childLogger: Logger | undefined = undefined;
  private clientLog: ClientLog | undefined = undefined;
  private lastProgress = -Infinity;
  private done = false;
  private readonly aborts = new RequestSignal();
  private readonly baseLogger: Logger;
  private readonly logBindings: Record<string, unknown>;
  private readonly detachTransport: (() => void) | undefined;
  private readonly link: ClientLink;
  readonly requestId: RequestId;
  readonly method: string;
  readonly client: ClientInfo;
  readonly session: SessionInfo | undefined;
  readonly transport: TransportInfo;
  readonly meta: Meta | undefined;
  /** @internal The request's own stream for related messages (progress, logs, questions). */
  readonly send: ((message: JsonRpcMessage) => void) | undefined;
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
  forTask(task: TaskHandle, link: ClientLink, send: (message: JsonRpcMessage) => void): HandlerContext {
    return new HandlerContext({
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

  releaseConnection(): boolean {
    if (!this.detachTransport || this.done) return false;
    this.detachTransport();
    return true;
  }

  get signal(): AbortSignal {
    return this.aborts.signal;
  }

  private traced: TraceContext | null | undefined = undefined;

  get trace(): TraceContext | undefined {
    if (this.traced === undefined) this.traced = readTraceContext(this.meta, this.transport.headers) ?? null;
    return this.traced ?? undefined;
  }

  get isCancelled(): boolean {
    return this.aborts.cancelled;
  }

  onCancel(listener: (reason: Error) => void): () => void {
    return this.aborts.onAbort(listener);
  }

  /** @internal Cancels the request: aborts `signal` (now, or when first read). */
  cancel(reason: Error): void {
    this.aborts.cancel(reason);
  }

  get logger(): Logger {
    // Created on first use: most requests never log, and a child costs an allocation.
    this.childLogger ??= this.baseLogger.child(this.logBindings);
    return this.childLogger;
  }

  get log(): ClientLog {
    this.clientLog ??= new ClientLog((level, data, logger) => this.emitLog(level, data, logger));
    return this.clientLog;
  }

  get progressToken(): string | number | undefined {
    const token = this.meta?.progressToken;
    return typeof token === 'string' || typeof token === 'number' ? token : undefined;
  }

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

  async elicit<T = Record<string, unknown>>(message: string, schema: Constructor<T> | JsonSchema, options: AskOptions = {}): Promise<ElicitResult<T>> {
    this.link.requireCapability('elicitation', METHOD.ELICITATION_CREATE);
    const { schema: requestedSchema, parse } = elicitationSchema(this.link.validators, schema as Constructor | JsonSchema);
    // `mode` arrived with URL elicitation; older clients know forms only.
    const params: Record<string, unknown> = this.link.elicitationModes ? { mode: 'form', message, requestedSchema } : { message, requestedSchema };
    const result = await this.ask(METHOD.ELICITATION_CREATE, params, options, 'elicitation', isElicitAnswer);
    return elicitOutcome<T>(result, parse, message);
  }

  elicitUrl(message: string, url: string, options: AskOptions = {}): Promise<{ action: 'accept' | 'decline' | 'cancel'; elicitationId: string }> {
    const { key, ...timing } = options;
    return this.link.askUrl(message, url, key, timing, this);
  }

  completeElicitation(elicitationId: string): void {
    this.link.completeElicitation(elicitationId);
  }

  async roots(options: AskOptions = {}): Promise<Root[]> {
    this.link.requireCapability('roots', METHOD.ROOTS_LIST);
    // The wait is a hard bound: a client's progress notifications do not stretch it (only a
    // caller's own maxTotalTimeoutMs does).
    const bounded = (timeoutMs: number): AskOptions => ({ ...options, timeoutMs, maxTotalTimeoutMs: options.maxTotalTimeoutMs ?? timeoutMs });
    const ask = async (timeoutMs?: number): Promise<Root[]> =>
      rootsOf(await this.ask(METHOD.ROOTS_LIST, {}, timeoutMs === undefined ? options : bounded(timeoutMs), 'roots', isRootsAnswer));
    const cache = this.link.rootsCache;
    return cache === undefined ? ask() : cache.get(ask, options.timeoutMs);
  }

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

  /** @internal A notification this request caused (a list it changed): on its own stream when it has one, else its session's. */
  notifyRelated(method: string, params?: Record<string, unknown>): void {
    this.related(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
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
