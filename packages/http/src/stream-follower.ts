import type { StoredEvent } from './event-store';

/**
 * Where a router delivers the events of a POST stream that another instance writes (its request
 * runs there) while a client that resumed it here reads them.
 */
export interface StreamFollower {
  /** The stream's later events, in order, each once (never a priming event). */
  events(events: readonly StoredEvent[]): void;
  /** The writer will add nothing more (the request was cancelled, or the session or stream is gone): end the response. */
  end(): void;
}

/** A POST stream followed on this instance. */
export interface FollowHandle {
  /** Stops following (the answer arrived, or the client went). */
  stop(): void;
}
