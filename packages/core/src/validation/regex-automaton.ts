import { intersectRanges, rangesSize } from './char-ranges';
import type { CharSet, RegexShape } from './regex-shape';

/**
 * A regex's position automaton (Glushkov): one state per character step, each edge tagged with
 * the construct that made it, so that `(a+)+`'s two ways from `a` back to `a` stay two edges.
 * The checks of regex-safety.ts read it.
 */

export interface Edge {
  readonly to: number;
  /** The repetition whose loop this edge closes (its text), or undefined for a step of a sequence. */
  readonly loop: string | undefined;
}

export interface Automaton {
  /** What each state reads (state 0 is the start and reads nothing). */
  readonly sets: CharSet[];
  readonly out: Edge[][];
}

/**
 * How a counted repetition `{min,max}` (max above 1) is built: as copies written out (the counts
 * to write, `x{2,4}` as `xx(x(x)?)?`), or, when undefined, as a loop.
 */
export type Unrolling = (min: number, max: number, body: RegexShape) => readonly [number, number] | undefined;

interface Fragment {
  nullable: boolean;
  first: number[];
  last: number[];
}

/** The automaton of `shape`, or undefined when it would have more than `maxStates` states. */
export function positionAutomaton(shape: RegexShape, unrolling: Unrolling, maxStates: number): Automaton | undefined {
  const sets: CharSet[] = [{ ranges: [], exact: true, source: '[]', flags: '' }];
  const out: Edge[][] = [[]];
  const link = (from: readonly number[], to: readonly number[], loop: string | undefined) => {
    for (const a of from) for (const b of to) out[a].push({ to: b, loop });
  };
  const build = (node: RegexShape): Fragment | undefined => {
    switch (node.kind) {
      case 'chars': {
        if (sets.length > maxStates) return undefined;
        const state = sets.length;
        sets.push(node.set);
        out.push([]);
        return { nullable: false, first: [state], last: [state] };
      }
      case 'seq': {
        let whole: Fragment = { nullable: true, first: [], last: [] };
        for (const item of node.items) {
          const next = build(item);
          if (next === undefined) return undefined;
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
        const parts: Fragment[] = [];
        for (const option of node.options) {
          const part = build(option);
          if (part === undefined) return undefined;
          parts.push(part);
        }
        return { nullable: parts.some((part) => part.nullable), first: parts.flatMap((part) => part.first), last: parts.flatMap((part) => part.last) };
      }
      case 'repeat': {
        if (node.max === 0) return { nullable: true, first: [], last: [] };
        const copies = node.max > 1 ? unrolling(node.min, node.max, node.body) : undefined;
        if (copies !== undefined) return build(unrolled(node.body, copies[0], copies[1]));
        const body = build(node.body);
        if (body === undefined) return undefined;
        if (node.max > 1) link(body.last, body.first, node.text);
        return { nullable: node.min === 0 || body.nullable, first: body.first, last: body.last };
      }
      default:
        return { nullable: true, first: [], last: [] };
    }
  };
  const whole = build(shape);
  if (whole === undefined || sets.length > maxStates) return undefined;
  link([0], whole.first, undefined);
  return { sets, out };
}

/** Whether `shape` can read nothing at all. */
export function nullable(shape: RegexShape): boolean {
  switch (shape.kind) {
    case 'chars':
      return false;
    case 'seq':
      return shape.items.every(nullable);
    case 'alt':
      return shape.options.some(nullable);
    case 'repeat':
      return shape.min === 0 || nullable(shape.body);
    default:
      return true;
  }
}

/** `body{min,max}` written out: `min` copies, then `max - min` nested optional ones. */
function unrolled(body: RegexShape, min: number, max: number): RegexShape {
  let tail: RegexShape = { kind: 'empty' };
  for (let i = max; i > min; i--) tail = { kind: 'repeat', body: { kind: 'seq', items: [body, tail] }, min: 0, max: 1, text: '' };
  return { kind: 'seq', items: [...Array.from({ length: min }, () => body), tail] };
}

/**
 * The strongly connected components of the nodes reachable from `start` (Tarjan's, without
 * recursion), numbered so that a component comes after every component it reaches; undefined
 * when `exhausted` says the work is over its bound.
 */
export function stronglyConnected(start: number, successors: (node: number) => readonly number[], exhausted: () => boolean): Map<number, number> | undefined {
  const order = new Map<number, number>();
  const low = new Map<number, number>();
  const component = new Map<number, number>();
  const stack: number[] = [];
  const onStack = new Set<number>();
  const frames: Array<{ node: number; next: readonly number[]; at: number }> = [];
  let counter = 0;
  let components = 0;
  const enter = (node: number) => {
    order.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    frames.push({ node, next: successors(node), at: 0 });
  };
  enter(start);
  while (frames.length > 0) {
    if (exhausted()) return undefined;
    const frame = frames[frames.length - 1];
    if (frame.at < frame.next.length) {
      const target = frame.next[frame.at++];
      if (!order.has(target)) enter(target);
      else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node)!, order.get(target)!));
      continue;
    }
    frames.pop();
    if (frames.length > 0) {
      const parent = frames[frames.length - 1].node;
      low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
    }
    if (low.get(frame.node) === order.get(frame.node)) {
      let member: number;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.set(member, components);
      } while (member !== frame.node);
      components++;
    }
  }
  return component;
}

/** Characters some inexact sets may have in common and still be told apart by test; beyond it, they are taken to meet. */
const MAX_TESTED = 1_024;

/**
 * Whether the steps can all read one same character: by their ranges, else (inexact ones) by
 * testing the characters they may share, counted in `tested`.
 */
export function setsMeet(sets: readonly CharSet[], tested: { count: number }): boolean {
  let common = sets[0].ranges;
  for (let i = 1; i < sets.length && common.length > 0; i++) common = intersectRanges(common, sets[i].ranges);
  if (common.length === 0) return false;
  if (sets.every((set) => set.exact) || rangesSize(common) > MAX_TESTED) return true;
  const tests = sets.map(tester);
  for (let i = 0; i < common.length; i += 2) {
    for (let code = common[i]; code <= common[i + 1]; code++) {
      tested.count++;
      const char = String.fromCodePoint(code);
      if (tests.every((test) => test(char))) return true;
    }
  }
  return false;
}

/** A test of whether `set` reads a character (the exact ones read all their ranges). */
export function tester(set: CharSet): (char: string) => boolean {
  if (set.exact) return () => true;
  const regex = new RegExp(`^(?:${set.source})$`, set.flags.replace(/[dgmy]/g, ''));
  return (char) => regex.test(char);
}
