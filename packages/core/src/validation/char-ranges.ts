// Sets of code points as sorted ranges, and what the regex reader and the automaton do with them.

/** Code points as sorted, disjoint, inclusive pairs: [lo0, hi0, lo1, hi1, …]. */
export type CharRanges = readonly number[];

const MAX_CODE_POINT = 0x10ffff;

/** Every code point. */
export const ANY: CharRanges = [0, MAX_CODE_POINT];

/** The union of some ranges, sorted and merged. */
export function unionRanges(...sets: CharRanges[]): CharRanges {
  const pairs: Array<[number, number]> = [];
  for (const set of sets) for (let i = 0; i < set.length; i += 2) pairs.push([set[i], set[i + 1]]);
  pairs.sort((a, b) => a[0] - b[0]);
  const merged: number[] = [];
  for (const [lo, hi] of pairs) {
    const last = merged.length - 1;
    if (last > 0 && lo <= merged[last] + 1) merged[last] = Math.max(merged[last], hi);
    else merged.push(lo, hi);
  }
  return merged;
}

/** Every code point not in `set`. */
export function complementRanges(set: CharRanges): CharRanges {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < set.length; i += 2) {
    if (set[i] > next) out.push(next, set[i] - 1);
    next = set[i + 1] + 1;
  }
  if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT);
  return out;
}

/** The code points in both sets. */
export function intersectRanges(a: CharRanges, b: CharRanges): CharRanges {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const lo = Math.max(a[i], b[j]);
    const hi = Math.min(a[i + 1], b[j + 1]);
    if (lo <= hi) out.push(lo, hi);
    if (a[i + 1] < b[j + 1]) i += 2;
    else j += 2;
  }
  return out;
}

/** How many code points a set holds. */
export function rangesSize(set: CharRanges): number {
  let size = 0;
  for (let i = 0; i < set.length; i += 2) size += set[i + 1] - set[i] + 1;
  return size;
}

/**
 * A superset of what `set` reads under the i flag: both cases of each ASCII letter, and, once it
 * holds a letter or anything beyond ASCII, everything beyond ASCII (Unicode case folding maps
 * `ſ` to `s` and the Kelvin sign to `k`).
 */
export function foldCase(set: CharRanges): CharRanges {
  const extra: number[] = [];
  let lettersOrWider = false;
  for (let i = 0; i < set.length; i += 2) {
    const lo = set[i];
    const hi = set[i + 1];
    for (const [from, to, shift] of [
      [0x41, 0x5a, 32],
      [0x61, 0x7a, -32],
    ]) {
      const a = Math.max(lo, from);
      const b = Math.min(hi, to);
      if (a <= b) {
        extra.push(a + shift, b + shift);
        lettersOrWider = true;
      }
    }
    if (hi >= 0x80) lettersOrWider = true;
  }
  if (lettersOrWider) extra.push(0x80, MAX_CODE_POINT);
  return extra.length === 0 ? set : unionRanges(set, extra);
}
