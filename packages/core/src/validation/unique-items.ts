import type Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject } from 'ajv';

/**
 * The first two equal items of `items` as JSON Schema compares them (objects by their members
 * whatever their order, arrays item by item, numbers by value), as `[earlier, later]` indexes;
 * undefined when all differ. Linear in the items' total size: each item is reduced to one key
 * (itself for a scalar, a canonical text for an object or array), and keys meet in a map.
 *
 * @example
 * duplicateOf([{ a: 1, b: 2 }, 3, { b: 2, a: 1 }]); // [0, 2]
 */
export function duplicateOf(items: readonly unknown[]): [number, number] | undefined {
  // Two maps, so that the string '{"a":1}' never meets the object { a: 1 }.
  const scalars = new Map<unknown, number>();
  let structured: Map<string, number> | undefined;
  for (let index = 0; index < items.length; index++) {
    const item = asSent(items[index]);
    if (typeof item !== 'object' || item === null) {
      const seen = scalars.get(item);
      if (seen !== undefined) return [seen, index];
      scalars.set(item, index);
      continue;
    }
    structured ??= new Map();
    const key = canonicalText(item);
    const seen = structured.get(key);
    if (seen !== undefined) return [seen, index];
    structured.set(key, index);
  }
  return undefined;
}

/** A value with `toJSON` (a Date in a tool's structured result) compares as it travels. */
function asSent(value: unknown): unknown {
  return typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function'
    ? (value as { toJSON(): unknown }).toJSON()
    : value;
}

/** A scalar's JSON text: strings quoted, so no string reads as a number or a structure. */
function scalarText(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/**
 * JSON text with every object's members sorted by name, built with an explicit stack: arguments
 * nest as deep as a client likes, and a recursion would end in a stack overflow.
 */
function canonicalText(root: object): string {
  let text = '';
  // A string on the stack is text to write; an object or array is still to be taken apart.
  const stack: Array<string | object> = [root];
  const push = (value: unknown): void => {
    const plain = asSent(value);
    stack.push(typeof plain === 'object' && plain !== null ? plain : scalarText(plain));
  };
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (typeof next === 'string') {
      text += next;
      continue;
    }
    if (Array.isArray(next)) {
      stack.push(']');
      for (let i = next.length - 1; i >= 0; i--) {
        push(next[i]);
        if (i > 0) stack.push(',');
      }
      stack.push('[');
      continue;
    }
    const record = next as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    stack.push('}');
    for (let i = keys.length - 1; i >= 0; i--) {
      push(record[keys[i]]);
      stack.push(`${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`);
    }
    stack.push('{');
  }
  return text;
}

/**
 * Replaces ajv's `uniqueItems`, which compares every pair of items whose type the schema leaves
 * open (objects, arrays, mixed): a few hundred kB of distinct objects held a server's CPU for
 * minutes. This one is linear, with ajv's error (`params: { i, j }`, i the later index).
 */
export function linearUniqueItems(ajv: Ajv2020): void {
  ajv.removeKeyword('uniqueItems');
  const validate = (unique: boolean, data: unknown): boolean => {
    if (unique !== true || !Array.isArray(data)) return true;
    const duplicate = duplicateOf(data);
    if (duplicate === undefined) return true;
    const [j, i] = duplicate;
    const error: Partial<ErrorObject> = {
      keyword: 'uniqueItems',
      params: { i, j },
      message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
    };
    validate.errors = [error];
    return false;
  };
  validate.errors = [] as Array<Partial<ErrorObject>>;
  ajv.addKeyword({ keyword: 'uniqueItems', type: 'array', schemaType: 'boolean', errors: true, validate });
}
