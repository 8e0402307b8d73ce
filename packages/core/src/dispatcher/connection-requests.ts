import { idKey } from '../protocol/exact-id';
import type { RequestId } from '../protocol/json-rpc';
import type { HandlerContext } from './handler-context';
import { RequestTable } from './request-table';
import type { OpenListen } from '../model/session-snapshot';

/** A `subscriptions/listen` request a connection holds open. */
export interface HeldListen {
  readonly id: RequestId;
  readonly listen: OpenListen;
}

/**
 * The requests one connection runs: in flight by id, those cancelled (by the client, or cut
 * short by close) whose handlers have not returned yet, and the open listens among them.
 */
export class ConnectionRequests {
  // Keyed by idKey: ids beyond 2^53 by their digits, so neighbours stay apart.
  private readonly inflight = new RequestTable<HandlerContext>();
  // Out of the table but still running: what a transport that exits now abandons. Made on the
  // first such request.
  private stopping: Set<HandlerContext> | undefined = undefined;
  // Made on the first listen: a stateless request never opens one.
  private listens: Map<string | number, HeldListen> | undefined = undefined;
  // At the limit since the last request that fit.
  private full = false;

  /** Requests in flight (cancelled ones not counted). */
  get size(): number {
    return this.inflight.size;
  }

  /**
   * Whether one more request fits under `limit` (`free`), counting cancelled handlers that have
   * not returned: they still hold what they hold. Else `filled` the first time since the last
   * one that fit, then `full`.
   */
  roomFor(limit: number): 'free' | 'filled' | 'full' {
    if (this.inflight.size + (this.stopping?.size ?? 0) < limit) {
      this.full = false;
      return 'free';
    }
    if (this.full) return 'full';
    this.full = true;
    return 'filled';
  }

  /** Whether a request with this id is in flight. */
  has(id: RequestId): boolean {
    return this.inflight.has(idKey(id));
  }

  /** Tracks a request in flight (a listen is kept for snapshots); returns its release. */
  track(id: RequestId, ctx: HandlerContext, listen?: OpenListen): () => void {
    const key = idKey(id);
    this.inflight.set(key, ctx);
    const open = listen === undefined ? undefined : { id, listen };
    if (open !== undefined) (this.listens ??= new Map()).set(key, open);
    return () => {
      if (this.inflight.get(key) === ctx) this.inflight.delete(key);
      else this.stopping?.delete(ctx);
      if (open !== undefined && this.listens?.get(key) === open) this.listens.delete(key);
    };
  }

  /** Cancels the request in flight with this id; false when there is none. */
  cancel(id: RequestId, reason: () => Error): boolean {
    const key = idKey(id);
    const ctx = this.inflight.get(key);
    if (!ctx) return false;
    this.inflight.delete(key);
    this.stop(ctx, reason());
    return true;
  }

  /** Cancels every request in flight (the connection closed). */
  cancelAll(reason: Error): void {
    const cutShort = [...this.inflight.values()];
    this.inflight.clear();
    for (const ctx of cutShort) this.stop(ctx, reason);
  }

  /** Ends every open listen as a cancellation would. */
  endListens(reason: Error): void {
    for (const [key] of this.listens ?? []) {
      const ctx = this.inflight.get(key);
      this.inflight.delete(key);
      ctx?.cancel(reason);
    }
  }

  /** The requests whose handlers have not returned yet: in flight, or cancelled and still running. */
  running(): HandlerContext[] {
    return [...this.inflight.values(), ...(this.stopping ?? [])];
  }

  /** The open listens. */
  openListens(): Iterable<HeldListen> {
    return this.listens?.values() ?? [];
  }

  // Cancels a request already out of the table; it counts as running until its handler returns.
  private stop(ctx: HandlerContext, reason: Error): void {
    (this.stopping ??= new Set()).add(ctx);
    ctx.cancel(reason);
  }
}
