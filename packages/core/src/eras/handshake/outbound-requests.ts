import { ClientRequestError, ConnectionClosedError, RequestTimeoutError } from '../../errors/client-errors';
import { isObject, type JsonRpcMessage, type RequestId } from '../../protocol/json-rpc';
import { METHOD } from '../../protocol/methods';
import type { OutboundRequestOptions } from '../../model/outbound-request-options';

interface Pending {
  method: string;
  resolve: (result: Record<string, unknown>) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  deadline: number;
  timeoutMs: number;
  send: (message: JsonRpcMessage) => void;
  cleanup: () => void;
}

// createApp passes its own requestTimeoutMs (default in APP_OPTIONS); this serves a bare OutboundRequests.
const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_TOTAL_MS = 10 * 60_000;

/** Every idle session's table until it first asks its client something: never written to. */
const NONE_PENDING: ReadonlyMap<RequestId, Pending> = new Map();

/**
 * Requests this server sends its client (sampling, elicitation, roots, ping), correlated with
 * the answers by id. Like the SDK's Protocol: a timeout that progress resets, a hard maximum,
 * cancellation sent when we give up, and everything rejected when the connection closes.
 */
export class OutboundRequests {
  private sequence = 0;
  // Made on the first request: most sessions never ask their client anything, and an empty Map
  // weighs ~200 bytes in each of 10 000 idle sessions (pnpm bench:scale).
  private pending = NONE_PENDING as Map<RequestId, Pending>;

  // A prefix the client is unlikely to use for its own ids keeps logs readable in both directions.
  constructor(private readonly idPrefix = 'mcpkit-') {}

  /** Requests waiting for an answer. */
  get size(): number {
    return this.pending.size;
  }

  request(
    method: string,
    params: Record<string, unknown>,
    send: (message: JsonRpcMessage) => void,
    options: OutboundRequestOptions = {},
  ): Promise<Record<string, unknown>> {
    this.sequence += 1;
    const id = `${this.idPrefix}${this.sequence}`;
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = Date.now() + (options.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_MS);
    return new Promise((resolve, reject) => {
      if (options.signal?.aborted) {
        reject(new ConnectionClosedError(method));
        return;
      }
      const onAbort = () => this.giveUp(id, new ConnectionClosedError(method), 'the request that asked was cancelled');
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const entry: Pending = {
        method,
        resolve,
        reject,
        timeoutMs,
        deadline,
        send,
        timer: setTimeout(() => this.giveUp(id, new RequestTimeoutError(method, timeoutMs), 'timeout'), Math.min(timeoutMs, deadline - Date.now())),
        cleanup: () => options.signal?.removeEventListener('abort', onAbort),
      };
      if (this.pending === NONE_PENDING) this.pending = new Map();
      this.pending.set(id, entry);
      // The progress token lets the client's progress reset our timeout.
      send({ jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...(isObject(params._meta) ? params._meta : {}), progressToken: id } } });
    });
  }

  /** Settles the request a client response answers; false when the id is not ours. */
  settle(message: Record<string, unknown>): boolean {
    const id = message.id as RequestId;
    const entry = this.pending.get(id);
    if (!entry) return false;
    this.finish(id, entry);
    if (isObject(message.error)) {
      const { code, message: text, data } = message.error;
      entry.reject(new ClientRequestError(entry.method, typeof code === 'number' ? code : 0, typeof text === 'string' ? text : 'error', data));
    } else {
      entry.resolve(isObject(message.result) ? message.result : {});
    }
    return true;
  }

  /** Client progress on one of our requests restarts its timeout (up to the hard maximum); false when the token is not ours. */
  progress(token: unknown): boolean {
    const entry = typeof token === 'string' || typeof token === 'number' ? this.pending.get(token) : undefined;
    if (!entry) return false;
    clearTimeout(entry.timer);
    const id = token as RequestId;
    const left = entry.deadline - Date.now();
    entry.timer = setTimeout(
      () => this.giveUp(id, new RequestTimeoutError(entry.method, entry.timeoutMs), 'timeout'),
      Math.max(0, Math.min(entry.timeoutMs, left)),
    );
    return true;
  }

  /** Rejects everything: the connection is gone. */
  closeAll(): void {
    for (const [id, entry] of [...this.pending]) {
      this.finish(id, entry);
      entry.reject(new ConnectionClosedError(entry.method));
    }
  }

  private giveUp(id: RequestId, error: Error, reason: string): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.finish(id, entry);
    entry.send({ jsonrpc: '2.0', method: METHOD.CANCELLED, params: { requestId: id, reason } });
    entry.reject(error);
  }

  private finish(id: RequestId, entry: Pending): void {
    clearTimeout(entry.timer);
    entry.cleanup();
    this.pending.delete(id);
  }
}
