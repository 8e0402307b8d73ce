import type { RateLimitStore } from '@mcpkit/core';
import type { Keys } from './keys';
import type { RedisLink } from './redis-link';
import { TAKE_TOKEN } from './scripts';

const WARN_EVERY_MS = 10_000;

/**
 * Rate-limit buckets in Redis: one token bucket per key shared by every instance, taken in one
 * script on Redis's clock, and gone after a window without use. While Redis cannot answer, calls
 * go ahead (fail open, logged at most every 10 s): an outage must not stop the 2026-07-28 calls
 * that need nothing else from Redis.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private warnedAt = 0;

  constructor(
    private readonly link: RedisLink,
    private readonly keys: Keys,
    private readonly onError: (error: unknown, what: string) => void,
  ) {}

  async take(key: string, limit: number, windowMs: number): Promise<number> {
    try {
      const wait = await this.link.send(['EVAL', TAKE_TOKEN, '1', this.keys.rateLimit(key), String(limit), String(Math.max(1, Math.ceil(windowMs)))]);
      return Number(wait);
    } catch (error) {
      const now = Date.now();
      if (now - this.warnedAt >= WARN_EVERY_MS) {
        this.warnedAt = now;
        this.onError(error, 'take a rate-limit token (calls go ahead unlimited until Redis answers)');
      }
      return 0;
    }
  }
}
