import type Ajv2020 from 'ajv/dist/2020';
import type { Code, KeywordCxt } from 'ajv';

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
export function canonicalText(root: object): string {
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
 *
 * A code-generating keyword, not a `validate` one: ajv's standalone code (precompiled validators,
 * `mcpkit build-validators`) can hold only those. The generated module reaches `duplicateOf`
 * through core's validator runtime, so that it needs no package but `@mcpkit/core`.
 */
export function linearUniqueItems(ajv: Ajv2020): void {
  // Loaded with ajv, not with this module: ajv costs its ~55 ms only once a validator is built.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { _, str } = require('ajv') as typeof import('ajv');
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword({
    keyword: 'uniqueItems',
    type: 'array',
    schemaType: 'boolean',
    error: {
      message: ({ params }) => str`must NOT have duplicate items (items ## ${params.j as Code} and ${params.i as Code} are identical)`,
      params: ({ params }) => _`{i: ${params.i as Code}, j: ${params.j as Code}}`,
    },
    code(cxt: KeywordCxt) {
      if (cxt.schema !== true) return;
      const find = cxt.gen.scopeValue('func', { ref: duplicateOf, code: _`require("@mcpkit/core/transport").validatorRuntime("duplicateOf")` });
      const duplicate = cxt.gen.const('duplicate', _`${find}(${cxt.data})`);
      cxt.setParams({ i: _`${duplicate}[1]`, j: _`${duplicate}[0]` });
      cxt.fail(_`${duplicate} !== undefined`);
    },
  });
}
