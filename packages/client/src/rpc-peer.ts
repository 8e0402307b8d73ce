import { ErrorCode, type JsonRpcMessage, type RequestId } from '@mcpkit/core';
import { isObject, MAX_TIMER_MS, RequestTable } from '@mcpkit/core/transport';
import type { CallOptions, Progress } from './call-options';
import { ClientErrorCode, McpClientError } from './client-error';
import type { RelatedCall, ServerRequestHandlers } from './server-requests';
import type { ClientTransport } from './transports/client-transport';

/** Bounds and defaults of a peer. */
export interface PeerLimits {
  timeoutMs: number;
  maxTotalTimeoutMs: number;
  resetTimeoutOnProgress: boolean;
  maxPendingRequests: number;
  maxServerRequests: number;
}

/** How a request of the client is cancelled: the params of `notifications/cancelled`, or none (closing its stream is the cancellation). */
export type CancelParams = (requestId: number, reason: string) => Record<string, unknown> | undefined;

/** Told of every notification the server sends. */
export type NotificationListener = (params: Record<string, unknown>, method: string) => void;

interface Pending {
  readonly id: number;
  readonly method: string;
  readonly resolve: (result: Record<string, unknown>) => void;
  readonly reject: (error: McpClientError) => void;
  readonly onProgress: ((progress: Progress) => void) | undefined;
  readonly tag: unknown;
  /** Over HTTP, the request's own stream (a POST): closed when the request ends. None over stdio. */
  readonly stream: AbortController | undefined;
  /** When it times out (`Date.now()` ms): the peer's one timer finds it (progress may push it back). */
  due: number;
  readonly timeoutMs: number;
  /** When progress may reset the timeout: the end no progress pushes back. */
  deadline: NodeJS.Timeout | undefined;
  readonly restart: (() => void) | undefined;
  /** The caller's signal and the listener that cancels on it (no closure of its own: a call makes few objects). */
  readonly signal: AbortSignal | undefined;
  readonly onAbort: (() => void) | undefined;
}

/**
 * One connection's JSON-RPC bookkeeping, whatever the era and the transport: ids, the bounded
 * table of requests waiting for their answers, timeouts, progress by token, cancellation, the
 * server's requests answered by the handlers, notifications to listeners. Every request ends
 * exactly once: answered, failed, timed out, cancelled, or rejected when the connection closes.
 */
export class RpcPeer {
  private nextId = 1;
  // Not a Map: see RequestTable (one churned by a request each way kept ~1 MB alive through every minor GC of a proxy).
  private readonly pending = new RequestTable<Pending>();
  private readonly serving = new Map<string, AbortController>();
  private refusing = 0;
  private closedWith: McpClientError | undefined;
  // One timer for every request's timeout, set for the earliest that may be due: a timer of its
  // own per request cost a proxied call more than the rest of its bookkeeping.
  private sweeper: NodeJS.Timeout | undefined = undefined;
  private sweepAt = Infinity;
  /** How a request is cancelled; the era sets it once it knows itself. */
  cancelParams: CancelParams = (requestId, reason) => ({ requestId, reason });

  constructor(
    private readonly transport: ClientTransport,
    private readonly handlers: ServerRequestHandlers,
    private readonly limits: PeerLimits,
    private readonly listeners = new Map<string, Set<NotificationListener>>(),
    private readonly onUnreadable: (error: McpClientError) => void = () => undefined,
  ) {}

  /** Why the connection closed, once it did. */
  get closeReason(): McpClientError | undefined {
    return this.closedWith;
  }

  /** How many requests wait for their answers. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Sends a request and resolves with its result object; rejects with a `McpClientError`. */
  request(method: string, params: Record<string, unknown> | undefined, options: CallOptions = {}): Promise<Record<string, unknown>> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    if (this.pending.size >= this.limits.maxPendingRequests) {
      return Promise.reject(
        new McpClientError(
          ClientErrorCode.TooManyPendingRequests,
          `${this.limits.maxPendingRequests} requests already wait for their answers (maxPendingRequests)`,
          {
            limit: this.limits.maxPendingRequests,
          },
        ),
      );
    }
    if (options.signal?.aborted) return Promise.reject(cancelled(method, options.signal.reason));
    const id = this.nextId++;
    // The params go as given unless `_meta` gains something (a proxied call adds nothing: no copy).
    let body = params;
    if (options._meta !== undefined || options.onProgress !== undefined) {
      const meta: Record<string, unknown> = { ...(params?._meta as Record<string, unknown> | undefined), ...options._meta };
      if (options.onProgress) meta.progressToken = id;
      if (Object.keys(meta).length > 0) body = { ...params, _meta: meta };
    }
    return new Promise((resolve, reject) => {
      // Made only where a request owns a stream: aborting one costs a DOMException per request.
      const stream = this.transport.kind === 'http' ? new AbortController() : undefined;
      const timeoutMs = options.timeoutMs ?? this.limits.timeoutMs;
      const signal = options.signal;
      const onAbort = signal === undefined ? undefined : () => this.cancel(id, cancelled(method, signal.reason));
      if (onAbort !== undefined) signal!.addEventListener('abort', onAbort, { once: true });
      const entry: Pending = {
        id,
        method,
        resolve,
        reject,
        onProgress: options.onProgress,
        tag: options.tag,
        stream,
        due: Date.now() + timeoutMs,
        timeoutMs,
        deadline: undefined,
        restart: (options.resetTimeoutOnProgress ?? this.limits.resetTimeoutOnProgress) ? () => void (entry.due = Date.now() + timeoutMs) : undefined,
        signal,
        onAbort,
      };
      this.watch(entry.due);
      // The spec asks for a bound no progress lifts: a server could otherwise keep a call open forever.
      if (entry.restart) {
        const total = options.maxTotalTimeoutMs ?? this.limits.maxTotalTimeoutMs;
        const why = `${method} still ran after ${total} ms (maxTotalTimeoutMs), though its progress reset its timeout`;
        entry.deadline = setTimeout(() => this.cancel(id, new McpClientError(ClientErrorCode.RequestTimeout, why, { maxTotalTimeoutMs: total })), total);
      }
      this.pending.set(id, entry);
      const message = { jsonrpc: '2.0', id, method, ...(body === undefined ? {} : { params: body }) } as JsonRpcMessage;
      this.transport
        .send(message, stream === undefined ? undefined : { signal: stream.signal })
        .catch((error: unknown) => this.settle(id, undefined, asClientError(error, method)));
    });
  }

  /** Sends a notification; a failure to send is reported, never thrown at the caller. */
  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.closedWith) throw this.closedWith;
    await this.transport.send({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) } as JsonRpcMessage);
  }

  /** Listens to one notification method (`*`: every one); returns the function that stops listening. */
  on(method: string, listener: NotificationListener): () => void {
    let set = this.listeners.get(method);
    if (!set) this.listeners.set(method, (set = new Set()));
    set.add(listener);
    return () => void set.delete(listener);
  }

  /**
   * Reads one message from the server (`relatedTo`: the request whose stream carried it). Never
   * throws: what it cannot read is reported.
   */
  receive(message: unknown, relatedTo?: number): void {
    if (!Array.isArray(message)) return this.receiveOne(message, relatedTo);
    // One level only: a batch holds messages, and a server nesting batches deep must not exhaust the stack.
    for (const element of message) {
      if (Array.isArray(element)) this.onUnreadable(McpClientError.invalid('the connection', 'a batch inside a batch'));
      else this.receiveOne(element, relatedTo);
    }
  }

  private receiveOne(message: unknown, relatedTo: number | undefined): void {
    if (!isObject(message) || message.jsonrpc !== '2.0') {
      this.onUnreadable(McpClientError.invalid('the connection', 'a message that is not JSON-RPC 2.0'));
      return;
    }
    const { id, method } = message;
    if (typeof method === 'string') {
      if (id === undefined) this.notified(method, message.params);
      else this.serve(id as RequestId, method, message.params, relatedTo === undefined ? undefined : this.pending.get(relatedTo));
      return;
    }
    this.answered(message);
  }

  /** Fails one request with an error the transport found in its answer. */
  fail(requestId: number, error: McpClientError): void {
    this.settle(requestId, undefined, error);
  }

  /** Cancels a request: the server is told (as the era says), the stream closed, the caller rejected with `error`. */
  cancel(requestId: number, error: McpClientError): void {
    const entry = this.pending.get(requestId);
    if (!entry) return;
    // initialize is never cancelled (the spec forbids it): it only fails.
    const params = this.closedWith || entry.method === 'initialize' ? undefined : this.cancelParams(requestId, error.message);
    this.settle(requestId, undefined, error);
    if (params) this.notify('notifications/cancelled', params).catch(() => undefined);
  }

  /** Cancels every waiting request made with `tag` (`CallOptions.tag`), as `cancel` does; returns how many. */
  cancelTagged(tag: unknown, reason: unknown): number {
    let count = 0;
    for (const entry of this.pending.values()) {
      if (entry.tag !== tag) continue;
      this.cancel(entry.id, cancelled(entry.method, reason));
      count++;
    }
    return count;
  }

  /** Rejects every waiting request with `error` and aborts what the handlers still run; the first reason stays. */
  close(error: McpClientError): void {
    if (this.closedWith) return;
    this.closedWith = error;
    for (const entry of this.pending.values()) this.settle(entry.id, undefined, error);
    for (const controller of this.serving.values()) controller.abort(error);
    this.serving.clear();
  }

  private answered(message: Record<string, unknown>): void {
    const id = message.id;
    const entry = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (!entry) {
      this.onUnreadable(McpClientError.invalid('the connection', `an answer to no request waiting (id ${JSON.stringify(id) ?? 'none'})`));
      return;
    }
    if ('error' in message) this.settle(id as number, undefined, McpClientError.fromWire(message.error, entry.method));
    else if (isObject(message.result)) this.settle(id as number, message.result);
    else this.settle(id as number, undefined, McpClientError.invalid(entry.method, 'no result object and no error'));
  }

  private settle(id: number, result: Record<string, unknown> | undefined, error?: McpClientError): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    // Nothing left to time out: no timer keeps the process alive.
    if (this.pending.size === 0) this.unwatch();
    if (entry.deadline !== undefined) clearTimeout(entry.deadline);
    if (entry.onAbort !== undefined) entry.signal!.removeEventListener('abort', entry.onAbort);
    entry.stream?.abort();
    if (error) entry.reject(error);
    else entry.resolve(result!);
  }

  /** Makes sure the timer fires by `due`. */
  private watch(due: number): void {
    if (due >= this.sweepAt) return;
    clearTimeout(this.sweeper);
    this.sweepAt = due;
    this.sweeper = setTimeout(this.sweep, Math.min(Math.max(0, due - Date.now()), MAX_TIMER_MS));
  }

  private unwatch(): void {
    clearTimeout(this.sweeper);
    this.sweeper = undefined;
    this.sweepAt = Infinity;
  }

  /** Times out every request past its due time, and waits for the next. */
  private readonly sweep = (): void => {
    this.sweeper = undefined;
    this.sweepAt = Infinity;
    const now = Date.now();
    let next = Infinity;
    for (const entry of this.pending.values()) {
      if (entry.due > now) next = Math.min(next, entry.due);
      else
        this.cancel(
          entry.id,
          new McpClientError(ClientErrorCode.RequestTimeout, `${entry.method} got no answer within ${entry.timeoutMs} ms`, { timeoutMs: entry.timeoutMs }),
        );
    }
    if (next !== Infinity && this.pending.size > 0) this.watch(next);
  };

  private notified(method: string, params: unknown): void {
    const body = isObject(params) ? params : {};
    if (method === 'notifications/progress') this.progressed(body);
    else if (method === 'notifications/cancelled') this.stopServing(JSON.stringify(body.requestId), body.reason);
    for (const key of [method, '*']) {
      for (const listener of this.listeners.get(key) ?? []) {
        try {
          listener(body, method);
        } catch (error) {
          this.onUnreadable(new McpClientError(ClientErrorCode.InvalidResponse, `a listener of ${method} threw`, undefined, { cause: error }));
        }
      }
    }
  }

  /** The server cancelled its request: its handler is aborted and no answer goes out. */
  private stopServing(key: string, reason: unknown): void {
    const controller = this.serving.get(key);
    if (!controller) return;
    this.serving.delete(key);
    controller.abort(new Error(typeof reason === 'string' ? reason : 'cancelled by the server'));
  }

  private progressed(params: Record<string, unknown>): void {
    const entry = typeof params.progressToken === 'number' ? this.pending.get(params.progressToken) : undefined;
    if (!entry?.onProgress || typeof params.progress !== 'number') return;
    entry.restart?.();
    const progress: Progress = { progress: params.progress };
    if (typeof params.total === 'number') progress.total = params.total;
    if (typeof params.message === 'string') progress.message = params.message;
    try {
      entry.onProgress(progress);
    } catch (error) {
      // The caller's callback, run from the transport's data handler: a throw there would take the process down.
      this.onUnreadable(new McpClientError(ClientErrorCode.InvalidResponse, `the onProgress callback of a ${entry.method} threw`, undefined, { cause: error }));
    }
  }

  /**
   * Answers a request past the bound `-32600`. The refusals in flight are bounded too (over HTTP
   * each is a POST): past that a flood is dropped and reported, so it cannot open a socket a request.
   */
  private refuse(id: RequestId, key: string): void {
    if (this.refusing >= this.limits.maxServerRequests) {
      this.onUnreadable(McpClientError.invalid('the connection', 'a request of the server past maxServerRequests, while refusals are still being sent'));
      return;
    }
    const why = this.serving.has(key)
      ? `request id ${key} is already being answered`
      : `the client already answers ${this.limits.maxServerRequests} requests of the server`;
    this.refusing++;
    this.transport
      .send({ jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidRequest, message: why } } as JsonRpcMessage)
      .catch(() => undefined)
      .finally(() => this.refusing--);
  }

  private serve(id: RequestId, method: string, params: unknown, related: Pending | undefined): void {
    const key = JSON.stringify(id);
    const answer = (body: Record<string, unknown>) => {
      if (this.serving.get(key) !== controller) return;
      this.serving.delete(key);
      this.transport.send({ jsonrpc: '2.0', id, ...body } as JsonRpcMessage).catch((error: unknown) => this.onUnreadable(asClientError(error, method)));
    };
    const controller = new AbortController();
    if (this.serving.size >= this.limits.maxServerRequests || this.serving.has(key)) {
      this.refuse(id, key);
      return;
    }
    this.serving.set(key, controller);
    const call = related === undefined ? undefined : { method: related.method, tag: related.tag };
    answerServerRequest(this.handlers, method, isObject(params) ? params : {}, controller.signal, call).then(answer, answer);
  }
}

/** The answer (`{ result }` or `{ error }`) to one request of the server, or to a 2026-07-28 input request. */
export async function answerServerRequest(
  handlers: ServerRequestHandlers,
  method: string,
  params: Record<string, unknown>,
  signal: AbortSignal,
  call?: RelatedCall,
): Promise<Record<string, unknown>> {
  const handler = Object.hasOwn(handlers, method) ? handlers[method] : undefined;
  if (typeof handler !== 'function') {
    if (method === 'ping') return { result: {} };
    return { error: { code: ErrorCode.MethodNotFound, message: `The client does not answer ${method}` } };
  }
  try {
    const result = await handler(params, { method, signal, ...(call === undefined ? {} : { call }) });
    return { result: isObject(result) ? result : {} };
  } catch (error) {
    if (error instanceof McpClientError)
      return { error: { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) } };
    return { error: { code: ErrorCode.InternalError, message: error instanceof Error ? error.message : String(error) } };
  }
}

function cancelled(method: string, reason: unknown): McpClientError {
  const why = reason instanceof Error ? reason.message : reason === undefined ? 'aborted' : String(reason);
  return new McpClientError(ClientErrorCode.RequestCancelled, `${method} was cancelled: ${why}`);
}

function asClientError(error: unknown, method: string): McpClientError {
  if (error instanceof McpClientError) return error;
  return new McpClientError(ClientErrorCode.ConnectionClosed, `${method} could not be sent: ${describe(error)}`, undefined, {
    cause: error,
  });
}

/**
 * An error's message with its cause's: `fetch` says only "fetch failed", its cause says why
 * (ECONNREFUSED …). Read by shape: undici's errors come from another realm under a test runner.
 */
function describe(error: unknown): string {
  const message = (value: unknown) => (isObject(value) && typeof value.message === 'string' ? value.message : undefined);
  const cause = isObject(error) ? message(error.cause) : undefined;
  const own = message(error) ?? String(error);
  return cause === undefined ? own : `${own} (${cause})`;
}
