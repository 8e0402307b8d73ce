/**
 * @internal A first-in first-out queue with O(1) push and shift: `Array#shift` moves every
 * element, which a queue of a million events cannot afford.
 */
export class Fifo<T> {
  private items: Array<T | undefined> = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  peek(): T | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head += 1;
    // Reclaim the consumed front once it is half the array.
    if (this.head >= 1_024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    } else if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    }
    return item;
  }

  /** Keeps only the items `keep` accepts, in order. */
  retain(keep: (item: T) => boolean): void {
    const kept: T[] = [];
    for (let i = this.head; i < this.items.length; i++) {
      const item = this.items[i] as T;
      if (keep(item)) kept.push(item);
    }
    this.items = kept;
    this.head = 0;
  }
}
