import { InvalidRequestError, MemoryRateLimitStore, type AuthInfo, type Logger, type RateLimitStore } from '@mcpkit/core';
import { errorResult, type HttpBodyResult } from './http-result';

/** Who a request to the endpoint is, as far as is known before its body is read. */
export interface EndpointCaller {
  /** The verified token's holder (a resource server), else undefined. */
  readonly auth: AuthInfo | undefined;
  /** The client's address, when the binding knows it. */
  readonly remoteAddress: string | undefined;
}

/**
 * `rateLimit` of the HTTP options: a token bucket over every request to the MCP endpoint,
 * checked before the body is read.
 *
 * @example
 * serveHttp(app, { rateLimit: { limit: 600, windowMs: 60_000 } });
 */
export interface EndpointRateLimitOptions {
  /** Requests per `windowMs` per caller (the bucket refills evenly). */
  limit: number;
  windowMs: number;
  /**
   * The bucket a request counts against. Default: the token's subject (issuer and `sub`) when
   * the endpoint authenticates, else the client's address (behind a proxy, the proxy's: key by
   * a header your proxy sets instead).
   */
  by?: (caller: EndpointCaller) => string;
  /** Where the buckets live (default: a `MemoryRateLimitStore`, per process). */
  store?: RateLimitStore;
}

const defaultKey = ({ auth, remoteAddress }: EndpointCaller): string =>
  auth !== undefined ? `sub:${auth.issuer ?? ''} ${auth.subject}` : remoteAddress !== undefined ? `address:${remoteAddress}` : 'anonymous';

/** The endpoint-wide limit: undefined for a request that may go on, else its `429`. */
export class EndpointRateLimit {
  private readonly store: RateLimitStore;
  private readonly keyOf: (caller: EndpointCaller) => string;

  constructor(private readonly options: EndpointRateLimitOptions) {
    const { limit, windowMs, by, store } = options;
    if (!(Number.isSafeInteger(limit) && limit > 0) || !(Number.isFinite(windowMs) && windowMs > 0)) {
      throw new TypeError(`mcpkit HTTP rateLimit: limit must be a positive integer and windowMs a positive number (got ${String(limit)}, ${String(windowMs)})`);
    }
    if (by !== undefined && typeof by !== 'function') throw new TypeError('mcpkit HTTP rateLimit: by must be a function of the caller');
    if (store !== undefined && typeof store.take !== 'function') throw new TypeError('mcpkit HTTP rateLimit: store must be a RateLimitStore (take())');
    this.store = store ?? new MemoryRateLimitStore();
    this.keyOf = by ?? defaultKey;
  }

  /**
   * Takes a token for the caller. A store that fails lets the request through, logged: the
   * limit guards capacity, it decides no access.
   */
  async check(caller: EndpointCaller, logger: Logger): Promise<HttpBodyResult | undefined> {
    let wait: number;
    try {
      const taken = this.store.take(`http:${this.keyOf(caller)}`, this.options.limit, this.options.windowMs);
      wait = taken instanceof Promise ? await taken : taken;
    } catch (error) {
      logger.error({ err: error }, 'rate-limit store failed; request let through');
      return undefined;
    }
    if (!(wait > 0)) return undefined;
    const seconds = Math.max(1, Math.ceil(wait / 1000));
    // Decided before the body is read: the request id is unknown, so id null (as a 401 there).
    return errorResult(429, new InvalidRequestError(`Too Many Requests: retry in ${seconds} s`, { retryAfterMs: wait }), null, {
      'retry-after': String(seconds),
    });
  }
}
