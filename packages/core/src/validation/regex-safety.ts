import { nullable, positionAutomaton, setsMeet, stronglyConnected, type Automaton, type Edge, type Unrolling } from './regex-automaton';
import { polynomialDegree } from './regex-degree';
import { ANY } from './char-ranges';
import { parseRegex, type RegexShape } from './regex-shape';
import { moreWaysThan } from './regex-ways';

/**
 * Whether a backtracking engine (V8's) can take time on a regex that a short crafted value makes
 * long. Three checks, on the regex and on each lookaround's body, read as a position automaton
 * (regex-automaton.ts):
 *
 * - exponential: some part can read the same text in two different ways and is repeated, so
 *   each repetition doubles the ways a failing match tries (`(a+)+$`, `(a|a)*$`, `(\w+\s?)*$` on
 *   30 characters: seconds; on 40: hours). The test is the one for exponential ambiguity (Weber
 *   and Seidl): pair the automaton with itself and look for a cycle of pairs that starts on one
 *   state twice and leaves it by two different edges reading the same character.
 * - polynomial: neighbouring repetitions that can share one text out among them (regex-degree.ts).
 *   Up to quadratic passes (`^a*a*b$`, `^[^@]+@[^@]+\.[^@]+$`); cubic and beyond is refused
 *   (`^a*a*a*b$`, `^\w+\d+\w+\d+$`). A pattern that does not start with `^` is tried from every
 *   position of the value, one degree more (`a*a*b`).
 * - many ways: counted repetitions written out have no loop, but their copies can share one text
 *   out in a number of ways that grows with the product of the counts (`(?:\w{1,10}\s?){1,10}`:
 *   25 s on 51 characters). Refused beyond `MAX_WAYS` ways to read one text (regex-ways.ts).
 */

/** The longest a check may look (its steps): beyond it a pattern is refused as too large to check. */
const MAX_STEPS = 500_000;
/** Steps of the automaton beyond which a pattern is not analysed at all. */
const MAX_POSITIONS = 1_000;
/**
 * Counted repetitions up to this many are written out (`x{2,4}` as `xx(x(x)?)?`), so that
 * `[0-9a-f]{4}` is four steps and not a loop; longer ones are read as loops, which can only add
 * ambiguity (`(a|a){0,30}` is exponential all the same).
 */
const MAX_UNROLLED = 10;
/** The most ways one text may be read (counted repetitions written out) before a pattern is refused. */
export const MAX_WAYS = 1_000;
/** The highest degree of a polynomial pattern that passes: quadratic. */
export const MAX_DEGREE = 2;

/** Why a regex is refused; undefined when it is safe. */
export type RegexRisk =
  | { kind: 'ambiguous-repetition'; repetition: string }
  | { kind: 'too-many-ways'; repetition: string | undefined }
  | { kind: 'polynomial'; degree: number; repetitions: string[]; everyStart: boolean }
  | { kind: 'too-large' }
  | undefined;

const TOO_LARGE = { kind: 'too-large' } as const;
/** The engine's search from every position of the value: `[^]*?` before a pattern without `^`. */
const EVERY_START: RegexShape = {
  kind: 'repeat',
  body: { kind: 'chars', set: { ranges: ANY, exact: true, source: '[^]', flags: '' } },
  min: 0,
  max: Infinity,
  text: '',
};
const loopsBeyondTen: Unrolling = (min, max) => (max <= MAX_UNROLLED ? [min, max] : undefined);
/**
 * Counted repetitions written out for counting ways; a loop once more than its least (`x*` as
 * `x?`). Beyond `MAX_UNROLLED` + 1 copies more add no way the checks before have not refused
 * (such a repetition is a loop to them), but for the rounds a body that may read nothing must
 * make: `(a?){30}` is 30 copies.
 */
const writtenOut: Unrolling = (min, max, body) => {
  const most = nullable(body) ? Math.max(MAX_UNROLLED + 1, min) : MAX_UNROLLED + 1;
  return [Math.min(min, most), Math.min(max === Infinity ? min + 1 : max, most)];
};

/**
 * Why a backtracking engine can take long on `source` (compiled with `flags`), or undefined
 * when it cannot.
 *
 * @example
 * backtrackingRisk('^(\\w+\\s?)*$', ''); // { kind: 'ambiguous-repetition', repetition: '(\\w+\\s?)*' }
 * backtrackingRisk('^a*a*a*b$', ''); // { kind: 'polynomial', degree: 3, repetitions: ['a*', 'a*', 'a*'], everyStart: false }
 * backtrackingRisk('^[a-z0-9]+(?:-[a-z0-9]+)*$', ''); // undefined
 */
export function backtrackingRisk(source: string, flags: string): RegexRisk {
  const { shape, sides, sidesFirst } = parseRegex(source, flags);
  const anchored = (!flags.includes('m') && source.startsWith('^')) || flags.includes('y');
  const risks = [partRisk(shape, anchored), ...sides.map((side, i) => partRisk(side, anchored && sidesFirst[i]))];
  return risks.find((risk) => risk !== undefined);
}

/** The risk of one part (the regex, or a lookaround's body); `first` when it runs only where the value starts. */
function partRisk(shape: RegexShape, first: boolean): RegexRisk {
  if (repeatsMoreThanOneStep(shape)) {
    const automaton = positionAutomaton(shape, loopsBeyondTen, MAX_POSITIONS);
    if (automaton === undefined) return TOO_LARGE;
    const risk = ambiguousLoop(automaton);
    if (risk !== undefined) return risk;
  }
  const tried = positionAutomaton(first ? shape : { kind: 'seq', items: [EVERY_START, shape] }, loopsBeyondTen, MAX_POSITIONS);
  const degree = tried && polynomialDegree(tried, MAX_STEPS);
  if (degree === undefined) return TOO_LARGE;
  if (degree.degree > MAX_DEGREE) {
    return {
      kind: 'polynomial',
      degree: degree.degree,
      repetitions: degree.repetitions.filter((text) => text !== ''),
      everyStart: degree.repetitions[0] === '',
    };
  }
  const many = tooManyWays(shape);
  if (many === undefined) return TOO_LARGE;
  return many ? { kind: 'too-many-ways', repetition: outermostWithTooManyWays(shape) } : undefined;
}

/** Whether `shape`, counted repetitions written out, reads some text in more than `MAX_WAYS` ways. */
function tooManyWays(shape: RegexShape): boolean | undefined {
  const automaton = positionAutomaton(shape, writtenOut, MAX_POSITIONS);
  return automaton && moreWaysThan(automaton, MAX_WAYS, MAX_STEPS);
}

/** The outermost counted repetition that by itself reads a text in too many ways, if one does. */
function outermostWithTooManyWays(shape: RegexShape): string | undefined {
  switch (shape.kind) {
    case 'seq':
      return firstFound(shape.items);
    case 'alt':
      return firstFound(shape.options);
    case 'repeat':
      if (shape.max > 1 && shape.max !== Infinity && shape.body.kind !== 'chars' && tooManyWays(shape) === true) return shape.text;
      return outermostWithTooManyWays(shape.body);
    default:
      return undefined;
  }
}

function firstFound(shapes: readonly RegexShape[]): string | undefined {
  for (const shape of shapes) {
    const found = outermostWithTooManyWays(shape);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Only a repetition of more than one character step (a group, a backreference) can be ambiguous. */
function repeatsMoreThanOneStep(shape: RegexShape): boolean {
  switch (shape.kind) {
    case 'seq':
      return shape.items.some(repeatsMoreThanOneStep);
    case 'alt':
      return shape.options.some(repeatsMoreThanOneStep);
    case 'repeat':
      return (shape.max > 1 && shape.body.kind !== 'chars') || repeatsMoreThanOneStep(shape.body);
    default:
      return false;
  }
}

/**
 * Walks the pairs of states that read the same text from the start and finds a strongly
 * connected component of them that holds a pair (q, q) and an edge taken two different ways: a
 * loop two paths go around on the same text.
 */
function ambiguousLoop({ sets, out }: Automaton): RegexRisk {
  const n = sets.length;
  let steps = 0;
  const meets = new Int8Array(n * n).fill(-1);
  const meet = (a: number, b: number) => {
    const at = a * n + b;
    if (meets[at] === -1) {
      const tested = { count: 0 };
      meets[at] = setsMeet([sets[a], sets[b]], tested) ? 1 : 0;
      steps += tested.count;
    }
    return meets[at] === 1;
  };
  // Successors of a pair: [pair, first edge, second edge] for each two edges reading a common character.
  const edgesOf = new Map<number, Array<[number, Edge, Edge]>>();
  const successors = (pair: number): number[] => {
    const p = Math.floor(pair / n);
    const q = pair % n;
    const found: Array<[number, Edge, Edge]> = [];
    for (const e1 of out[p]) {
      for (const e2 of out[q]) {
        steps++;
        if (meet(e1.to, e2.to)) found.push([e1.to * n + e2.to, e1, e2]);
      }
    }
    edgesOf.set(pair, found);
    return found.map((edge) => edge[0]);
  };
  const component = stronglyConnected(0, successors, () => steps > MAX_STEPS);
  if (component === undefined) return TOO_LARGE;
  const diagonal = new Set<number>();
  for (const [pair, id] of component) if (Math.floor(pair / n) === pair % n) diagonal.add(id);
  let worst: string | undefined;
  for (const [pair, edges] of edgesOf) {
    const id = component.get(pair)!;
    if (!diagonal.has(id)) continue;
    for (const [target, e1, e2] of edges) {
      if (e1 === e2 || component.get(target) !== id) continue;
      // Two ways around one loop: name its outermost repetition, where the fix goes.
      for (const [, f1, f2] of edgesInside(edgesOf, component, id)) {
        for (const loop of [f1.loop, f2.loop]) if (loop !== undefined && (worst === undefined || loop.length > worst.length)) worst = loop;
      }
      return { kind: 'ambiguous-repetition', repetition: worst ?? '' };
    }
  }
  return undefined;
}

function* edgesInside(edgesOf: Map<number, Array<[number, Edge, Edge]>>, component: Map<number, number>, id: number): Generator<[number, Edge, Edge]> {
  for (const [pair, edges] of edgesOf) {
    if (component.get(pair) !== id) continue;
    for (const edge of edges) if (component.get(edge[0]) === id) yield edge;
  }
}
