/** How many requests a table keeps in its arrays before it moves them to dictionaries. */
const SMALL_LIMIT = 64;
/** The arrays' first length: every connection has a table, and most never run more than this at once. */
const FIRST_CAPACITY = 4;
/** What the dictionaries are until a table first needs them: nothing is ever written to it. */
const NONE: Record<string | number, never> = Object.freeze(Object.create(null) as Record<string | number, never>);

/**
 * What a connection runs, by request id key (`idKey`), and what a client waits for: what a `Map`
 * would do, without a `Map`. Keys compare with `===`, so `NaN` never finds itself: a key here is
 * an id from JSON or a counter, never `NaN`.
 *
 * Up to 64 requests (a client rarely has more in flight) live in three arrays, found by a
 * linear scan: a few comparisons, where adding and deleting a dictionary property
 * cost a quarter of a microsecond each, a twentieth of a stdio call. Past that the table moves
 * to two null-prototype objects (numbers, strings) until it is empty again, so a flood of
 * requests costs no scan. Neither a `Map`: one whose entries come and go with every request
 * rehashes into a new table every few dozen requests, and V8 links each obsolete table to the
 * next; once one of them is in the old generation, that chain holds every table since, and the
 * requests they held, through each minor GC (~1 MB promoted per scavenge on a busy connection).
 * Arrays that never shrink, and dictionaries, leave nothing behind. The arrays start at 4 entries
 * and double, up to 64, when a connection first runs more at once: an idle HTTP session keeps
 * its table, so 10 000 of them would otherwise hold 15 MB of empty slots (pnpm bench:scale).
 */
export class RequestTable<V> {
  // Small mode: entries 0 … count-1, in no particular order; `orders` says when each was added.
  private keys: Array<string | number | undefined> = new Array<string | number | undefined>(FIRST_CAPACITY).fill(undefined);
  private vals: Array<V | undefined> = new Array<V | undefined>(FIRST_CAPACITY).fill(undefined);
  private orders: number[] = new Array<number>(FIRST_CAPACITY).fill(0);
  // Large mode (`large`): by kind of key, with when each key was added (small integers); `NONE`
  // until the table first goes large.
  private large = false;
  private numbers: Record<number, V> = NONE;
  private strings: Record<string, V> = NONE;
  private numberOrder: Record<number, number> = NONE;
  private stringOrder: Record<string, number> = NONE;
  private count = 0;
  private added = 0;

  get size(): number {
    return this.count;
  }

  get(key: string | number): V | undefined {
    if (this.large) return typeof key === 'number' ? this.numbers[key] : this.strings[key];
    const at = this.indexOf(key);
    return at < 0 ? undefined : this.vals[at];
  }

  has(key: string | number): boolean {
    return this.get(key) !== undefined;
  }

  /** Values are never undefined: that is how a missing key reads. */
  set(key: string | number, value: V): void {
    if (!this.large) {
      const at = this.indexOf(key);
      if (at >= 0) {
        this.vals[at] = value;
        return;
      }
      if (this.count === this.keys.length && this.count < SMALL_LIMIT) this.widen();
      if (this.count < SMALL_LIMIT) {
        this.keys[this.count] = key;
        this.vals[this.count] = value;
        this.orders[this.count] = this.added++;
        this.count++;
        return;
      }
      this.grow();
    }
    const fresh = this.get(key) === undefined;
    if (typeof key === 'number') {
      this.numbers[key] = value;
      if (fresh) this.numberOrder[key] = this.added++;
    } else {
      this.strings[key] = value;
      if (fresh) this.stringOrder[key] = this.added++;
    }
    if (fresh) this.count++;
  }

  delete(key: string | number): boolean {
    if (!this.large) {
      const at = this.indexOf(key);
      if (at < 0) return false;
      // The last entry takes the freed place; its `orders` entry goes with it.
      const last = --this.count;
      this.keys[at] = this.keys[last];
      this.vals[at] = this.vals[last];
      this.orders[at] = this.orders[last];
      this.keys[last] = undefined;
      this.vals[last] = undefined;
      return true;
    }
    if (this.get(key) === undefined) return false;
    if (typeof key === 'number') {
      delete this.numbers[key];
      delete this.numberOrder[key];
    } else {
      delete this.strings[key];
      delete this.stringOrder[key];
    }
    if (--this.count === 0) this.clear();
    return true;
  }

  clear(): void {
    this.keys.fill(undefined);
    this.vals.fill(undefined);
    if (this.large) {
      this.large = false;
      this.numbers = NONE;
      this.strings = NONE;
      this.numberOrder = NONE;
      this.stringOrder = NONE;
    }
    this.count = 0;
  }

  /** Every value, in the order their keys were added (rare: a shutdown, a listing). */
  values(): V[] {
    const entries: Array<[number, V]> = [];
    if (!this.large) for (let i = 0; i < this.count; i++) entries.push([this.orders[i], this.vals[i] as V]);
    for (const key in this.numbers) entries.push([this.numberOrder[key as unknown as number], this.numbers[key as unknown as number]]);
    for (const key in this.strings) entries.push([this.stringOrder[key], this.strings[key]]);
    return entries.sort((a, b) => a[0] - b[0]).map((entry) => entry[1]);
  }

  // `===`: 1 and '1' stay apart, 0 and -0 are one key, as in the dictionaries.
  private indexOf(key: string | number): number {
    for (let i = 0; i < this.count; i++) if (this.keys[i] === key) return i;
    return -1;
  }

  /** Doubles the arrays (up to SMALL_LIMIT): the new ones replace the old, which nothing holds. */
  private widen(): void {
    const length = Math.min(SMALL_LIMIT, this.keys.length * 2);
    const keys = new Array<string | number | undefined>(length).fill(undefined);
    const vals = new Array<V | undefined>(length).fill(undefined);
    const orders = new Array<number>(length).fill(0);
    for (let i = 0; i < this.count; i++) {
      keys[i] = this.keys[i];
      vals[i] = this.vals[i];
      orders[i] = this.orders[i];
    }
    this.keys = keys;
    this.vals = vals;
    this.orders = orders;
  }

  /** Moves the arrays' entries to fresh dictionaries, keeping when each was added. */
  private grow(): void {
    this.numbers = Object.create(null) as Record<number, V>;
    this.strings = Object.create(null) as Record<string, V>;
    this.numberOrder = Object.create(null) as Record<number, number>;
    this.stringOrder = Object.create(null) as Record<string, number>;
    for (let i = 0; i < this.count; i++) {
      const key = this.keys[i] as string | number;
      if (typeof key === 'number') {
        this.numbers[key] = this.vals[i] as V;
        this.numberOrder[key] = this.orders[i];
      } else {
        this.strings[key] = this.vals[i] as V;
        this.stringOrder[key] = this.orders[i];
      }
    }
    this.keys.fill(undefined);
    this.vals.fill(undefined);
    this.large = true;
  }
}
