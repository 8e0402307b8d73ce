import { tester, type Automaton } from './regex-automaton';
import { unionRanges, type CharRanges } from './char-ranges';
import type { CharSet } from './regex-shape';

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

/** Inexact steps are told by test below this code point, and taken to read all their ranges from it on. */
const TESTED_BELOW = 0x800;
const testedRanges = new Map<string, CharRanges>();

/** What an inexact step (Unicode properties, the `i` flag) reads: tested below `TESTED_BELOW`, a superset beyond. */
function rangesOf(set: CharSet): CharRanges {
  if (set.exact) return set.ranges;
  const key = `${set.flags}/${set.source}`;
  let ranges = testedRanges.get(key);
  if (ranges === undefined) {
    const reads = tester(set);
    const found: number[] = [];
    for (let code = 0; code < TESTED_BELOW; code++) if (reads(String.fromCodePoint(code))) found.push(code, code);
    const beyond: number[] = [];
    for (let i = 0; i < set.ranges.length; i += 2) if (set.ranges[i + 1] >= TESTED_BELOW) beyond.push(Math.max(set.ranges[i], TESTED_BELOW), set.ranges[i + 1]);
    ranges = unionRanges(found, beyond);
    testedRanges.set(key, ranges);
  }
  return ranges;
}

/**
 * The character classes no step tells apart, each as which states read it. Inexact steps count
 * by `rangesOf`, a superset: at worst more ways.
 */
function characterClasses(automaton: Automaton): { readers: Uint8Array[]; work: number } {
  // Sweep the code points: each range opens its state's reading at its start and closes it after its end.
  const events = new Map<number, number[]>();
  const at = (code: number) => events.get(code) ?? (events.set(code, []), events.get(code)!);
  automaton.sets.forEach((set, state) => {
    const ranges = rangesOf(set);
    for (let i = 0; i < ranges.length; i += 2) {
      at(ranges[i]).push(state + 1);
      at(ranges[i + 1] + 1).push(-(state + 1));
    }
  });
  const reading = new Uint8Array(automaton.sets.length);
  const readers = new Map<string, Uint8Array>();
  let work = 0;
  for (const code of [...events.keys()].sort((a, b) => a - b)) {
    for (const change of events.get(code)!) reading[Math.abs(change) - 1] = change > 0 ? 1 : 0;
    work += reading.length;
    const key = reading.join('');
    if (!readers.has(key) && reading.includes(1)) readers.set(key, reading.slice());
  }
  return { readers: [...readers.values()], work };
}
