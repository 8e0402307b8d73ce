import type { JsonSchema } from '../protocol/mcp-types';
import { exceedsJsonBounds } from './json-bounds';

/**
 * Deepest nesting of objects and arrays in the arguments of an input whose schema refers to
 * itself. ajv's validator and the DTO builder recurse with the data, so without a bound a tree
 * 5 000 levels deep (150 KB, well within the message limits) overflows the stack; 256 levels is a
 * tree of 128 `{ children: [...] }` nodes, far past real inputs and far from the stack's end.
 */
export const MAX_ARGUMENT_DEPTH = 256;

const REFERENCES = new Set(['$ref', '$dynamicRef', '$recursiveRef']);

/** True when the schema has a reference anywhere: only then can valid data nest without end. */
function hasReference(schema: unknown): boolean {
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== 'object' || node === null) continue;
    for (const [key, value] of Object.entries(node)) {
      if (REFERENCES.has(key) && typeof value === 'string') return true;
      pending.push(value);
    }
  }
  return false;
}

/**
 * The depth check an input needs, decided once at start-up: undefined for schemas without
 * references, whose depth (and so the validator's) is bounded by the schema itself; otherwise a
 * check, without recursion, that returns the problem to report.
 */
export function argumentDepthCheck(schema: JsonSchema): ((args: Record<string, unknown>) => string | undefined) | undefined {
  if (!hasReference(schema)) return undefined;
  const bounds = { maxDepth: MAX_ARGUMENT_DEPTH, maxChars: Number.POSITIVE_INFINITY };
  const problem = `(root): nests deeper than ${MAX_ARGUMENT_DEPTH} levels of objects and arrays`;
  return (args) => (exceedsJsonBounds(args, bounds) ? problem : undefined);
}
