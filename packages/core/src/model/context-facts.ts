import type { AuthInfo } from '../auth/auth-info';
import type { Logger } from '../logging/logger';
import type { RequestId } from '../protocol/json-rpc';
import type { CacheHint } from '../results/cache-hints';

/**
 * What an era codec and a request's host read of its context: the dispatcher's
 * `RequestContext` is one, so a codec never needs the dispatcher to shape or track a request.
 */
export interface ContextFacts {
  readonly requestId: RequestId;
  readonly method: string;
  /** Who is calling, as the transport established it. */
  readonly auth: AuthInfo | undefined;
  readonly signal: AbortSignal;
  readonly isCancelled: boolean;
  readonly logger: Logger;
  /** The cache hint the handler set, if any. */
  cacheHint(): CacheHint | undefined;
  /** Cancels the request: aborts `signal`. */
  cancel(reason: Error): void;
}
