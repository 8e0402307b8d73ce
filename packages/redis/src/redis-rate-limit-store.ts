import type { RateLimitStore } from '@mcpkit/core';
import type { Keys } from './keys';
import type { RedisLink } from './redis-link';
import { TAKE_TOKEN } from './scripts';

/**
 * Rate-limit buckets in Redis: one token bucket per key shared by every instance, taken in one
 * script on Redis's clock, and gone after a window without use.
 */
export class RedisRateLimitStore implements RateLimitStore {
  constructor(
    private readonly link: RedisLink,
    private readonly keys: Keys,
  ) {}

  async take(key: string, limit: number, windowMs: number): Promise<number> {
    const wait = await this.link.send(['EVAL', TAKE_TOKEN, '1', this.keys.rateLimit(key), String(limit), String(Math.max(1, Math.ceil(windowMs)))]);
    return Number(wait);
  }
}
