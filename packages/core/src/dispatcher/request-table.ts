/**
 * What a connection runs, by request id key (`idKey`): what a `Map` would do, kept in two
 * null-prototype objects (numbers, strings) instead. A `Map` whose entries come and go with
 * every request rehashes into a new table every few dozen requests, and V8 links each obsolete
 * table to the next; once one of them is in the old generation, that chain holds every
 * table since, and the requests they held, through each minor GC. They were all promoted and
 * waited for a full GC: ~1 MB per scavenge on a busy connection, a third of its GC time. An
 * object's dictionary leaves nothing behind when it grows or shrinks.
 */
export class RequestTable<V> {
  private numbers: Record<number, V> = Object.create(null) as Record<number, V>;
  private strings: Record<string, V> = Object.create(null) as Record<string, V>;
  // When each key was added (small integers, so no allocation): `values()` lists in that order.
  private numberOrder: Record<number, number> = Object.create(null) as Record<number, number>;
  private stringOrder: Record<string, number> = Object.create(null) as Record<string, number>;
  private count = 0;
  private added = 0;

  get size(): number {
    return this.count;
  }

  get(key: string | number): V | undefined {
    return typeof key === 'number' ? this.numbers[key] : this.strings[key];
  }

  has(key: string | number): boolean {
    return this.get(key) !== undefined;
  }

  /** Values are never undefined: that is how a missing key reads. */
  set(key: string | number, value: V): void {
    const fresh = this.get(key) === undefined;
    if (fresh) this.count++;
    if (typeof key === 'number') {
      this.numbers[key] = value;
      if (fresh) this.numberOrder[key] = this.added++;
    } else {
      this.strings[key] = value;
      if (fresh) this.stringOrder[key] = this.added++;
    }
  }

  delete(key: string | number): boolean {
    if (this.get(key) === undefined) return false;
    if (typeof key === 'number') {
      delete this.numbers[key];
      delete this.numberOrder[key];
    } else {
      delete this.strings[key];
      delete this.stringOrder[key];
    }
    this.count--;
    return true;
  }

  clear(): void {
    this.numbers = Object.create(null) as Record<number, V>;
    this.strings = Object.create(null) as Record<string, V>;
    this.numberOrder = Object.create(null) as Record<number, number>;
    this.stringOrder = Object.create(null) as Record<string, number>;
    this.count = 0;
  }

  /** Every value, in the order their keys were added (rare: a shutdown, a listing). */
  values(): V[] {
    const entries: Array<[number, V]> = [];
    for (const key in this.numbers) entries.push([this.numberOrder[key as unknown as number], this.numbers[key as unknown as number]]);
    for (const key in this.strings) entries.push([this.stringOrder[key], this.strings[key]]);
    return entries.sort((a, b) => a[0] - b[0]).map((entry) => entry[1]);
  }
}
