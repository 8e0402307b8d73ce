import { RateLimit, Tool } from '@mcpkit/core';

/**
 * `limited` (issue #14): at most 5 calls per 10 s per caller. Anonymous callers count by their
 * session on the handshake era and by their client address on 2026-07-28; the 6th call answers
 * the rate-limit `isError` result.
 */
export class LimitedTools {
  @Tool({ description: 'Answers limited:ok, at most 5 times per 10 s per caller' })
  @RateLimit({ limit: 5, windowMs: 10_000 })
  limited(): string {
    return 'limited:ok';
  }
}
