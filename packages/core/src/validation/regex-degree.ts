import { setsMeet, stronglyConnected, type Automaton } from './regex-automaton';

/**
 * How a failing match's time grows with the value's length when no repetition is ambiguous by
 * itself: as n^degree, where the degree is one more than the longest chain of loops that can
 * share one text out among them (Weber and Seidl's polynomial ambiguity). Loops p and q share a
 * text when some word v goes around p, from p to q, and around q: then each split of a run of
 * v between them is a way the engine tries. `^a*a*b$` on n a's: n splits, each tried at each of
 * n ends: n^2. `^a*a*a*b$`: n^3. `^a*a*-b*b*$` chains a*a* and b*b*, each split of the a's
 * tried with each of the b's: n^3.
 */

export interface Degree {
  readonly degree: number;
  /** The repetitions of the chain (the text of each loop's outermost one), in order. */
  readonly repetitions: readonly string[];
}

interface Step {
  readonly hops: number;
  readonly from: number | undefined;
  readonly shared: boolean;
}

/**
 * The degree of `automaton` and the repetitions that make it, or undefined when the work is
 * over `maxSteps`.
 */
export function polynomialDegree(automaton: Automaton, maxSteps: number): Degree | undefined {
  const { sets, out } = automaton;
  const n = sets.length;
  let steps = 0;
  const exhausted = () => steps > maxSteps;
  const targets = out.map((edges) => edges.map((edge) => edge.to));
  const component = stronglyConnected(0, (state) => ((steps += targets[state].length), targets[state]), exhausted);
  if (component === undefined) return undefined;
  // The loops: components with a cycle. Their numbers run against the order of a path through them.
  const members = new Map<number, number[]>();
  for (const [state, id] of component) {
    const states = members.get(id);
    if (states === undefined) members.set(id, [state]);
    else states.push(state);
  }
  const isLoop = (id: number) => {
    const states = members.get(id)!;
    return states.length > 1 || targets[states[0]].includes(states[0]);
  };
  const loops = [...members.keys()].filter(isLoop).sort((a, b) => b - a);
  const nameOf = (id: number) => {
    let name = '';
    for (const state of members.get(id)!) {
      for (const edge of out[state]) if (edge.loop !== undefined && component.get(edge.to) === id && edge.loop.length > name.length) name = edge.loop;
    }
    return name;
  };
  const meets = new Map<string, boolean>();
  const meet = (a: number, b: number, c: number) => {
    const key = `${a},${b},${c}`;
    let found = meets.get(key);
    if (found === undefined) {
      const tested = { count: 0 };
      found = setsMeet([sets[a], sets[b], sets[c]], tested);
      steps += tested.count;
      meets.set(key, found);
    }
    return found;
  };
  // From (p, p, q), one same text moves the three around p, from p to q, and around q: (p, q, q).
  const share = (from: number, to: number): boolean => {
    const inFrom = (state: number) => component.get(state) === from;
    const inTo = (state: number) => component.get(state) === to;
    for (const p of members.get(from)!) {
      for (const q of members.get(to)!) {
        const seen = new Set<number>();
        const queue = [(p * n + p) * n + q];
        while (queue.length > 0) {
          if (exhausted()) return true;
          const triple = queue.pop()!;
          const x = Math.floor(triple / (n * n));
          const y = Math.floor(triple / n) % n;
          const z = triple % n;
          for (const a of targets[x]) {
            if (!inFrom(a)) continue;
            for (const b of targets[y]) {
              for (const c of targets[z]) {
                steps++;
                if (!inTo(c) || !meet(a, b, c)) continue;
                if (a === p && b === q && c === q) return true;
                const next = (a * n + b) * n + c;
                if (!seen.has(next)) {
                  seen.add(next);
                  queue.push(next);
                }
              }
            }
          }
        }
      }
    }
    return false;
  };
  const reaches = (from: number): Set<number> => {
    const seen = new Set<number>(members.get(from));
    const queue = [...seen];
    while (queue.length > 0) {
      const state = queue.pop()!;
      for (const next of targets[state]) {
        steps++;
        if (!seen.has(next)) {
          seen.add(next);
          queue.push(next);
        }
      }
    }
    return new Set([...seen].map((state) => component.get(state)!));
  };
  // Longest chain, loop after loop along the paths, in the order of a path (descending numbers).
  const best = new Map<number, Step>();
  for (const id of loops) best.set(id, { hops: 0, from: undefined, shared: false });
  for (const from of loops) {
    const reached = reaches(from);
    for (const to of loops) {
      if (to === from || !reached.has(to)) continue;
      const hops = best.get(from)!.hops;
      const shared = hops + 1 > best.get(to)!.hops && share(from, to);
      if (hops + (shared ? 1 : 0) > best.get(to)!.hops) best.set(to, { hops: hops + (shared ? 1 : 0), from, shared });
      if (exhausted()) return undefined;
    }
  }
  let end: number | undefined;
  for (const id of loops) if (end === undefined || best.get(id)!.hops > best.get(end)!.hops) end = id;
  if (end === undefined || best.get(end)!.hops === 0) return { degree: 1, repetitions: [] };
  const path: Array<{ id: number; shared: boolean }> = [];
  for (let at: number | undefined = end; at !== undefined; at = best.get(at)!.from) path.unshift({ id: at, shared: best.get(at)!.shared });
  const named = path.filter((step, i) => step.shared || path[i + 1]?.shared);
  return { degree: best.get(end)!.hops + 1, repetitions: named.map((step) => nameOf(step.id)) };
}
