import type { Logger } from '@mcpkit/core';

/** One open listen's place among `OpenListens`: what ends it, and its release. */
export class ListenSlot {
  private readonly enders: Array<() => void> = [];
  private released = false;

  constructor(private readonly open: Set<ListenSlot>) {}

  /** Registers what cancels the listen (the stateless dispatcher's scope), for `end()`. */
  readonly onEnd = (listener: () => void): void => {
    if (!this.released) this.enders.push(listener);
  };

  /** Cancels the listen (shutdown): its stream ends, and its request settles and releases it. */
  end(): void {
    for (const listener of this.enders.splice(0)) listener();
  }

  /** Frees the slot once the listen's request settled, however it ended; again does nothing. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.enders.length = 0;
    this.open.delete(this);
  }
}

/**
 * The `subscriptions/listen` requests open on this endpoint, all clients together: each stays
 * open, holding its connection, its filter and its request, for as long as its client wants
 * (over HTTP every listen is a request of its own, so no session or connection bound covers
 * them). At most `max` at once; the next is refused until one ends.
 */
export class OpenListens {
  private readonly open = new Set<ListenSlot>();
  // At the cap since the last refusal (its warning is logged).
  private full = false;

  constructor(
    readonly max: number,
    private readonly logger: Logger,
  ) {}

  /** Listens open now. */
  get size(): number {
    return this.open.size;
  }

  /** A slot for one more listen, released when it ends; undefined at the cap (one warn line each time it fills up). */
  admit(logger: Logger = this.logger): ListenSlot | undefined {
    if (this.open.size >= this.max) {
      if (!this.full) logger.warn({ limit: this.max }, 'refused a subscriptions/listen over maxListens');
      this.full = true;
      return undefined;
    }
    this.full = false;
    const slot = new ListenSlot(this.open);
    this.open.add(slot);
    return slot;
  }

  /** Ends every open listen (shutdown). */
  endAll(): void {
    for (const slot of [...this.open]) slot.end();
  }
}
