import type { Automaton } from './regex-automaton';

/**
 * Whether some text can be read in more than `limit` ways by an automaton without loops (its
 * counted repetitions written out): each way is a path the engine tries on a value that fails
 * just after that text. `(?:\w{1,10}\s?){1,10}` reads 45 letters in thousands of ways (each
 * split into at most 10 runs of at most 10), `(?:a|a){10}` 10 a's in 1 024.
 *
 * The texts are walked character class by character class (the classes no step tells apart),
 * keeping how many ways reach each state; a set of counts met before is not walked again.
 * Returns `true`, `false`, or `undefined` when the work is over `maxSteps`.
 */
export function moreWaysThan(automaton: Automaton, limit: number, maxSteps: number): boolean | undefined {
  const { out } = automaton;
  const classes = characterClasses(automaton);
  let steps = classes.work;
  const seen = new Set<string>();
  const queue: Array<Map<number, number>> = [new Map([[0, 1]])];
  while (queue.length > 0) {
    const ways = queue.pop()!;
    for (const reads of classes.readers) {
      const next = new Map<number, number>();
      let total = 0;
      for (const [state, count] of ways) {
        for (const edge of out[state]) {
          steps++;
          if (!reads[edge.to]) continue;
          const sum = Math.min((next.get(edge.to) ?? 0) + count, limit + 1);
          total += sum - (next.get(edge.to) ?? 0);
          next.set(edge.to, sum);
        }
      }
      if (total > limit) return true;
      if (steps > maxSteps) return undefined;
      if (next.size === 0) continue;
      const key = [...next].sort((a, b) => a[0] - b[0]).join(';');
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push(next);
    }
  }
  return false;
}

/**
 * The character classes no step tells apart, each as which states read it. Inexact steps
 * (Unicode properties, the `i` flag) count by their ranges, a superset: at worst more ways.
 */
function characterClasses({ sets }: Automaton): { readers: Uint8Array[]; work: number } {
  const bounds = new Set<number>([0]);
  for (const set of sets) for (let i = 0; i < set.ranges.length; i += 2) bounds.add(set.ranges[i]).add(set.ranges[i + 1] + 1);
  const starts = [...bounds].sort((a, b) => a - b);
  const readers = new Map<string, Uint8Array>();
  let work = 0;
  for (const code of starts) {
    const reads = new Uint8Array(sets.length);
    sets.forEach((set, state) => {
      work += set.ranges.length;
      if (contains(set.ranges, code)) reads[state] = 1;
    });
    if (reads.includes(1)) readers.set(reads.join(''), reads);
  }
  return { readers: [...readers.values()], work };
}

function contains(ranges: readonly number[], code: number): boolean {
  for (let i = 0; i < ranges.length; i += 2) if (code >= ranges[i] && code <= ranges[i + 1]) return true;
  return false;
}
