import { intersectRanges, parseRegex, rangesSize, type CharSet, type RegexShape } from './regex-shape';

/**
 * Whether a backtracking engine (V8's) can take time exponential in the input on a regex: when
 * some part of it can read the same text in two different ways and is repeated, each repetition
 * doubles the ways a failing match tries (`(a+)+$`, `(a|a)*$`, `(\w+\s?)*$` on 30 characters:
 * seconds; on 40: hours). Polynomial cases (`\s*\s*$`, `[^@]+@[^@]+\.[^@]+`) are not this
 * check's business: the length of the input bounds them.
 *
 * The test is the one for exponential ambiguity (Weber and Seidl): build the regex's position
 * automaton (Glushkov: one state per character step, each edge tagged with the construct that
 * made it, so that `(a+)+`'s two ways from `a` back to `a` stay two edges), pair it with itself,
 * and look for a cycle of pairs that starts on one state twice and leaves it by two different
 * edges reading the same character: two different ways around the same loop on the same text.
 */

/** The longest a check may look (product edges): beyond it a pattern is refused as too large to check. */
const MAX_STEPS = 500_000;
/** Steps of the automaton beyond which a pattern is not analysed at all. */
const MAX_POSITIONS = 1_000;
/**
 * Counted repetitions up to this many are written out (`x{2,4}` as `xx(x(x)?)?`), so that
 * `[0-9a-f]{4}` is four steps and not a loop; longer ones are read as loops, which can only add
 * ambiguity (`(a|a){0,30}` is exponential all the same).
 */
const MAX_UNROLLED = 10;
/** Characters two inexact sets may have in common and still be told apart by test; beyond it, they are taken to meet. */
const MAX_TESTED = 1_024;

/** Why a regex is refused; undefined when it is safe. */
export type RegexRisk = { kind: 'ambiguous-repetition'; repetition: string } | { kind: 'too-large' } | undefined;

/**
 * The repetition of `source` (compiled with `flags`) that makes its matching exponential, or
 * `too-large` when it has too many steps to tell; undefined when there is none.
 *
 * @example
 * exponentialRisk('^(\\w+\\s?)*$', ''); // { kind: 'ambiguous-repetition', repetition: '(\\w+\\s?)*' }
 * exponentialRisk('^[a-z0-9]+(?:-[a-z0-9]+)*$', ''); // undefined
 */
export function exponentialRisk(source: string, flags: string): RegexRisk {
  const { shape, sides } = parseRegex(source, flags);
  for (const part of [shape, ...sides]) {
    if (!repeatsMoreThanOneStep(part)) continue;
    const automaton = positionAutomaton(part);
    if (automaton === undefined) return { kind: 'too-large' };
    const risk = ambiguousLoop(automaton);
    if (risk !== undefined) return risk;
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

interface Edge {
  readonly to: number;
  /** The repetition whose loop this edge closes (its text), or undefined for a step of a sequence. */
  readonly loop: string | undefined;
}

interface Automaton {
  /** What each state reads (state 0 is the start and reads nothing). */
  readonly sets: CharSet[];
  readonly out: Edge[][];
}

interface Fragment {
  nullable: boolean;
  first: number[];
  last: number[];
}

function positionAutomaton(shape: RegexShape): Automaton | undefined {
  const sets: CharSet[] = [{ ranges: [], exact: true, source: '[]', flags: '' }];
  const out: Edge[][] = [[]];
  const link = (from: readonly number[], to: readonly number[], loop: string | undefined) => {
    for (const a of from) for (const b of to) out[a].push({ to: b, loop });
  };
  const build = (node: RegexShape): Fragment => {
    switch (node.kind) {
      case 'chars': {
        const state = sets.length;
        sets.push(node.set);
        out.push([]);
        return { nullable: false, first: [state], last: [state] };
      }
      case 'seq': {
        let whole: Fragment = { nullable: true, first: [], last: [] };
        for (const item of node.items) {
          const next = build(item);
          link(whole.last, next.first, undefined);
          whole = {
            nullable: whole.nullable && next.nullable,
            first: whole.nullable ? [...whole.first, ...next.first] : whole.first,
            last: next.nullable ? [...whole.last, ...next.last] : next.last,
          };
        }
        return whole;
      }
      case 'alt': {
        const parts = node.options.map(build);
        return { nullable: parts.some((part) => part.nullable), first: parts.flatMap((part) => part.first), last: parts.flatMap((part) => part.last) };
      }
      case 'repeat': {
        if (node.max === 0) return { nullable: true, first: [], last: [] };
        if (node.max > 1 && node.max <= MAX_UNROLLED) return build(unrolled(node.body, node.min, node.max));
        const body = build(node.body);
        if (node.max > 1) link(body.last, body.first, node.text);
        return { nullable: node.min === 0 || body.nullable, first: body.first, last: body.last };
      }
      default:
        return { nullable: true, first: [], last: [] };
    }
  };
  const whole = build(shape);
  if (sets.length > MAX_POSITIONS) return undefined;
  link([0], whole.first, undefined);
  return { sets, out };
}

/** `body{min,max}` written out: `min` copies, then `max - min` nested optional ones. */
function unrolled(body: RegexShape, min: number, max: number): RegexShape {
  let tail: RegexShape = { kind: 'empty' };
  for (let i = max; i > min; i--) tail = { kind: 'repeat', body: { kind: 'seq', items: [body, tail] }, min: 0, max: 1, text: '' };
  return { kind: 'seq', items: [...Array.from({ length: min }, () => body), tail] };
}

/**
 * Walks the pairs of states that read the same text from the start (Tarjan's strongly connected
 * components, without recursion) and finds a component that holds a pair (q, q) and an edge
 * taken two different ways: a loop two paths go around on the same text.
 */
function ambiguousLoop({ sets, out }: Automaton): RegexRisk {
  const n = sets.length;
  let steps = 0;
  const meets = new Int8Array(n * n).fill(-1);
  const meet = (a: number, b: number) => {
    const at = a * n + b;
    if (meets[at] === -1) {
      const tested = { count: 0 };
      meets[at] = setsMeet(sets[a], sets[b], tested) ? 1 : 0;
      steps += tested.count;
    }
    return meets[at] === 1;
  };
  // Successors of a pair: [pair, first edge, second edge] for each two edges reading a common character.
  const successors = (pair: number): Array<[number, Edge, Edge]> => {
    const p = Math.floor(pair / n);
    const q = pair % n;
    const found: Array<[number, Edge, Edge]> = [];
    for (const e1 of out[p]) {
      for (const e2 of out[q]) {
        steps++;
        if (meet(e1.to, e2.to)) found.push([e1.to * n + e2.to, e1, e2]);
      }
    }
    return found;
  };
  const order = new Map<number, number>();
  const low = new Map<number, number>();
  const component = new Map<number, number>();
  const stack: number[] = [];
  const onStack = new Set<number>();
  const edgesOf = new Map<number, Array<[number, Edge, Edge]>>();
  let counter = 0;
  let components = 0;
  const frames: Array<{ pair: number; next: number }> = [];
  const enter = (pair: number) => {
    order.set(pair, counter);
    low.set(pair, counter);
    counter++;
    stack.push(pair);
    onStack.add(pair);
    edgesOf.set(pair, successors(pair));
    frames.push({ pair, next: 0 });
  };
  enter(0);
  while (frames.length > 0) {
    if (steps > MAX_STEPS) return { kind: 'too-large' };
    const frame = frames[frames.length - 1];
    const edges = edgesOf.get(frame.pair)!;
    if (frame.next < edges.length) {
      const target = edges[frame.next++][0];
      if (!order.has(target)) enter(target);
      else if (onStack.has(target)) low.set(frame.pair, Math.min(low.get(frame.pair)!, order.get(target)!));
      continue;
    }
    frames.pop();
    if (frames.length > 0) {
      const parent = frames[frames.length - 1].pair;
      low.set(parent, Math.min(low.get(parent)!, low.get(frame.pair)!));
    }
    if (low.get(frame.pair) === order.get(frame.pair)) {
      let member: number;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.set(member, components);
      } while (member !== frame.pair);
      components++;
    }
  }
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

/**
 * Whether two steps can read one same character: by their ranges, else (inexact ones) by testing
 * the characters they may share, counted in `tested`.
 */
function setsMeet(a: CharSet, b: CharSet, tested: { count: number }): boolean {
  const common = intersectRanges(a.ranges, b.ranges);
  if (common.length === 0) return false;
  if ((a.exact && b.exact) || rangesSize(common) > MAX_TESTED) return true;
  const inA = tester(a);
  const inB = tester(b);
  for (let i = 0; i < common.length; i += 2) {
    for (let code = common[i]; code <= common[i + 1]; code++) {
      tested.count++;
      const char = String.fromCodePoint(code);
      if (inA(char) && inB(char)) return true;
    }
  }
  return false;
}

function tester(set: CharSet): (char: string) => boolean {
  if (set.exact) return () => true;
  const regex = new RegExp(`^(?:${set.source})$`, set.flags.replace(/[dgmy]/g, ''));
  return (char) => regex.test(char);
}
