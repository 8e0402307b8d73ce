import { monotonicMs } from '../logging/monotonic-ms';

/**
 * Where rate-limit buckets live. The in-memory default counts per process; a shared store
 * (Redis, with scale-out) makes a limit hold across instances.
 *
 * @example
 * createApp({ …, rateLimit: { limit: 60, windowMs: 60_000 }, rateLimitStore: new MemoryRateLimitStore({ maxKeys: 50_000 }) });
 */
export interface RateLimitStore {
  /**
   * Takes one token from the bucket `key` (`limit` tokens, refilled evenly over `windowMs`).
   * Returns 0 when the call may go ahead, else the milliseconds until a token is back.
   */
  take(key: string, limit: number, windowMs: number): number | Promise<number>;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Default of `MemoryRateLimitStore({ maxKeys })`. */
const DEFAULT_MAX_KEYS = 10_000;

/**
 * Token buckets in a Map, bounded: past `maxKeys` the least recently used bucket is dropped
 * (a full bucket, the state a new key starts in), so a flood of callers cannot grow memory.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly buckets = new Map<string, Bucket>();
  private readonly maxKeys: number;

  constructor(options: { maxKeys?: number; now?: () => number } = {}) {
    this.maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
    if (options.now) this.now = options.now;
  }

  private now: () => number = monotonicMs;

  take(key: string, limit: number, windowMs: number): number {
    const now = this.now();
    const perMs = limit / windowMs;
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      bucket = { tokens: limit, at: now };
      if (this.buckets.size >= this.maxKeys) this.buckets.delete(this.buckets.keys().next().value as string);
    } else {
      // Re-inserted below: Map order is then least recently used first.
      this.buckets.delete(key);
      bucket.tokens = Math.min(limit, bucket.tokens + (now - bucket.at) * perMs);
      bucket.at = now;
    }
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) / perMs);
  }
}
