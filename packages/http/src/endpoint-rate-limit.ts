import { MemoryRateLimitStore, type AuthInfo, type Logger, type RateLimitStore } from '@mcpkit/core';
import { principalOf } from '@mcpkit/core/transport';
import type { HttpBodyResult } from './http-result';
import { FAULTS, faultResult } from './transport-faults';

/** Who a request to the endpoint is, as far as is known before its body is read. */
export interface EndpointCaller {
  /** The verified token's holder (a resource server), else undefined. */
  readonly auth: AuthInfo | undefined;
  /** The client's address, when the binding knows it. */
  readonly remoteAddress: string | undefined;
}

/**
 * `rateLimit` of the HTTP options: a token bucket over every request to the MCP endpoint,
 * checked before the body is read; each further message of a JSON-RPC batch takes one more
 * token once the body is parsed.
 *
 * @example
 * serveHttp(app, { rateLimit: { limit: 600, windowMs: 60_000 } });
 */
export interface EndpointRateLimitOptions {
  /** Requests per `windowMs` per caller (the bucket refills evenly). */
  limit: number;
  windowMs: number;
  /**
   * The bucket a request counts against. Default: the verified token's subject (issuer and
   * `sub`), else (anonymous, or refused at the token check: `auth` undefined) the client's
   * address (behind a proxy, the proxy's: key by a header your proxy sets instead).
   */
  by?: (caller: EndpointCaller) => string;
  /** Where the buckets live (default: a `MemoryRateLimitStore`, per process). */
  store?: RateLimitStore;
  /**
   * The clock, in ms (default `performance.now`): of the addresses refused or suspect, and of the
   * default store. Tests pass their own to cross a window without waiting.
   */
  now?: () => number;
}

const defaultKey = ({ auth, remoteAddress }: EndpointCaller): string =>
  auth !== undefined ? `sub:${principalOf(auth)}` : remoteAddress !== undefined ? `address:${remoteAddress}` : 'anonymous';

// Addresses remembered (over their limit, suspect): past it the oldest is forgotten, which costs
// at most one more token check for it.
const MAX_BLOCKED = 10_000;

/** Sets `key` in a bounded map, most recent last. */
function remember(map: Map<string, number>, key: string, value: number): void {
  map.delete(key);
  if (map.size >= MAX_BLOCKED) map.delete(map.keys().next().value as string);
  map.set(key, value);
}

function tooManyRequests(wait: number): HttpBodyResult {
  // Decided before the body is read: the request id is unknown, so id null (as a 401 there).
  return faultResult(FAULTS.rateLimited(wait));
}

/** What `beforeTokenCheck` decided: a `429`, or go on (and call `done` once the token is checked). */
export type TokenCheckGate = { refused: HttpBodyResult } | { refused?: undefined; counted: boolean; done(): void };

/**
 * The endpoint-wide limit: undefined for a request that may go on, else its `429`. A verified
 * caller counts against its subject's bucket; a request without a valid token (anonymous, or
 * refused at the token check) against its address's. A request from an address that is
 * suspect (a refusal within the window, or another request in its token check) is counted
 * before its token is verified, and an address over its limit is refused before any token
 * check until a token is back: a flood of bad tokens, one by one or all at once, costs about
 * `limit` verifications per window (at most one more: the first of a burst), not one each.
 */
export class EndpointRateLimit {
  private readonly store: RateLimitStore;
  private readonly keyOf: (caller: EndpointCaller) => string;
  /** Address bucket → `now()` until which it is over the limit. */
  private readonly blocked = new Map<string, number>();
  /** Address bucket → `now()` of its last refusal at the token check. */
  private readonly suspects = new Map<string, number>();
  /** Address bucket → requests in their token check now. */
  private readonly checking = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly options: EndpointRateLimitOptions) {
    const { limit, windowMs, by, store } = options;
    if (!(Number.isSafeInteger(limit) && limit > 0) || !(Number.isFinite(windowMs) && windowMs > 0)) {
      throw new TypeError(`mcpkit HTTP rateLimit: limit must be a positive integer and windowMs a positive number (got ${String(limit)}, ${String(windowMs)})`);
    }
    if (by !== undefined && typeof by !== 'function') throw new TypeError('mcpkit HTTP rateLimit: by must be a function of the caller');
    if (store !== undefined && typeof store.take !== 'function') throw new TypeError('mcpkit HTTP rateLimit: store must be a RateLimitStore (take())');
    if (options.now !== undefined && typeof options.now !== 'function') throw new TypeError('mcpkit HTTP rateLimit: now must be a function returning ms');
    this.now = options.now ?? (() => performance.now());
    this.store = store ?? new MemoryRateLimitStore({ now: options.now });
    this.keyOf = by ?? defaultKey;
  }

  /**
   * Before a request's token is checked: a `429` for an address over its limit (this process's
   * memory of its last refusal: no store call), else go on, counted now against the address
   * when it is suspect. A verified caller from a refused address is refused with it: its token
   * is not looked at, which is the point (behind a proxy, key by `by`).
   */
  async beforeTokenCheck(remoteAddress: string | undefined, logger: Logger): Promise<TokenCheckGate> {
    const key = this.keyOf({ auth: undefined, remoteAddress });
    const now = this.now();
    const until = this.blocked.get(key);
    if (until !== undefined) {
      if (until > now) return { refused: tooManyRequests(until - now) };
      this.blocked.delete(key);
    }
    const refusedAt = this.suspects.get(key);
    if (refusedAt !== undefined && now - refusedAt >= this.options.windowMs) this.suspects.delete(key);
    const counted = this.suspects.has(key) || (this.checking.get(key) ?? 0) > 0;
    if (counted) {
      const over = await this.take(key, true, logger);
      if (over !== undefined) return { refused: over };
    }
    this.checking.set(key, (this.checking.get(key) ?? 0) + 1);
    let done = false;
    return {
      counted,
      done: () => {
        if (done) return;
        done = true;
        const left = (this.checking.get(key) ?? 1) - 1;
        if (left > 0) this.checking.set(key, left);
        else this.checking.delete(key);
      },
    };
  }

  /** After the token check of a request that has no valid token: its address is suspect for a window. */
  refusedAt(remoteAddress: string | undefined): void {
    const key = this.keyOf({ auth: undefined, remoteAddress });
    remember(this.suspects, key, this.now());
  }

  /**
   * Takes a token for the caller. A store that fails lets the request through, logged: the
   * limit guards capacity, it decides no access.
   */
  async check(caller: EndpointCaller, logger: Logger): Promise<HttpBodyResult | undefined> {
    return this.take(this.keyOf(caller), caller.auth === undefined, logger);
  }

  /**
   * The messages of a batch after its first (the request itself was counted on arrival, before
   * its body was read): each takes a token too, so a batch costs what its messages would cost
   * one by one. The `429` when the caller runs out; it stops taking there.
   */
  async checkBatch(caller: EndpointCaller, extra: number, logger: Logger): Promise<HttpBodyResult | undefined> {
    const key = this.keyOf(caller);
    for (let taken = 0; taken < extra; taken++) {
      const over = await this.take(key, caller.auth === undefined, logger);
      if (over !== undefined) return over;
    }
    return undefined;
  }

  private async take(key: string, byAddress: boolean, logger: Logger): Promise<HttpBodyResult | undefined> {
    let wait: number;
    try {
      const taken = this.store.take(`http:${key}`, this.options.limit, this.options.windowMs);
      wait = taken instanceof Promise ? await taken : taken;
    } catch (error) {
      logger.error({ err: error }, 'rate-limit store failed; request let through');
      return undefined;
    }
    if (!(wait > 0)) return undefined;
    if (byAddress) remember(this.blocked, key, this.now() + wait);
    return tooManyRequests(wait);
  }
}
