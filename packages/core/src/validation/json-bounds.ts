/** What a bounded JSON value may not exceed. */
export interface JsonBounds {
  /** Deepest nesting of objects and arrays (a scalar is 0, `[]` and `{}` are 1). */
  maxDepth: number;
  /** Most characters of its JSON text, about (strings counted by length, without escapes). */
  maxChars: number;
}

/** Why a value is out of bounds. */
export type JsonBoundsProblem = { kind: 'depth' } | { kind: 'size' };

/**
 * Checks a parsed JSON value against a depth and a size bound without recursion: an explicit
 * stack, and it stops at the first excess, so a value 20 000 arrays deep or with a million keys
 * costs at most about `maxChars` steps. Run it before anything recursive (`JSON.stringify`,
 * hashing, validation) touches client input.
 *
 * @example
 * if (exceedsJsonBounds(params.inputResponses, { maxDepth: 64, maxChars: 65_536 })) throw new InvalidParamsError('…');
 */
export function exceedsJsonBounds(value: unknown, bounds: JsonBounds): JsonBoundsProblem | undefined {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  let chars = 0;
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop()!;
    if (typeof current === 'string') chars += current.length + 2;
    else if (typeof current !== 'object' || current === null) chars += 5;
    else {
      if (depth + 1 > bounds.maxDepth) return { kind: 'depth' };
      chars += 2;
      if (Array.isArray(current)) {
        for (const item of current) {
          chars += 1;
          if (chars > bounds.maxChars) return { kind: 'size' };
          values.push(item);
          depths.push(depth + 1);
        }
      } else {
        for (const key in current) {
          chars += key.length + 4;
          if (chars > bounds.maxChars) return { kind: 'size' };
          values.push((current as Record<string, unknown>)[key]);
          depths.push(depth + 1);
        }
      }
    }
    if (chars > bounds.maxChars) return { kind: 'size' };
  }
  return undefined;
}
