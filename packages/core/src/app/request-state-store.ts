/**
 * Where the 2026-07-28 input-required exchanges that completed are remembered until their states
 * expire, so a completing round runs once: its `requestState` replayed within its lifetime (or
 * a sibling state of the same exchange) is refused. A round in progress holds its exchange too,
 * so two copies of one round cannot both run. The in-memory default serves one process; behind
 * a load balancer every instance must share one (Redis: `redisScaleOut().requestStateStore`).
 *
 * @example
 * createApp({ …, requestStateSecret, requestStateStore: scaleOut.requestStateStore });
 */
export interface RequestStateStore {
  /**
   * Marks exchange `id` taken until `expiresAt` (ms since the epoch) unless it is taken already:
   * true when this call took it, false when it was taken. Rejects when it cannot tell (a store
   * that cannot be reached, or is full): the round is then refused, never run twice.
   */
  claim(id: string, expiresAt: number): boolean | Promise<boolean>;
  /** Frees exchange `id` again: its round asked another question or failed, so the exchange goes on. */
  release(id: string): void | Promise<void>;
}

/** Default of `MemoryRequestStateStore({ maxEntries })`. */
const DEFAULT_MAX_ENTRIES = 100_000;

/**
 * Exchanges in a Map, in claim order, each dropped once expired. Bounded: with `maxEntries`
 * unexpired exchanges held, a new claim is refused (the round answered `-32603`, try again),
 * rather than forget one that could then be replayed.
 */
export class MemoryRequestStateStore implements RequestStateStore {
  private readonly taken = new Map<string, number>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: { maxEntries?: number; now?: () => number } = {}) {
    this.maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    if (!(Number.isSafeInteger(this.maxEntries) && this.maxEntries > 0)) {
      throw new TypeError(`MemoryRequestStateStore: maxEntries must be a positive integer (got ${String(options.maxEntries)})`);
    }
    this.now = options.now ?? Date.now;
  }

  claim(id: string, expiresAt: number): boolean {
    const now = this.now();
    const until = this.taken.get(id);
    if (until !== undefined && until > now) return false;
    this.taken.delete(id);
    // Claimed in order, with one lifetime each: the oldest expire first.
    for (const [oldest, expires] of this.taken) {
      if (expires > now) break;
      this.taken.delete(oldest);
    }
    if (this.taken.size >= this.maxEntries) throw new Error(`the request-state store holds ${this.maxEntries} unexpired exchanges (maxEntries)`);
    this.taken.set(id, expiresAt);
    return true;
  }

  release(id: string): void {
    this.taken.delete(id);
  }
}
