/** The workload every server answers, and the answers every server must give. */

import { VALID } from '@mcpkit/app-testbed/dist/examples';

export { VALID };

export const VALID_TEXT = 'valid:Ada:36:2:12345:-';

const { priority: _priority, ...withoutPriority } = VALID;

/** testbed.md's ten bad `validate` inputs: each must be rejected before the handler runs. */
export const BAD_VALIDATE: ReadonlyArray<[string, Record<string, unknown>]> = [
  ['bad email', { ...VALID, email: 'not-an-email' }],
  ['age 200', { ...VALID, age: 200 }],
  ['age 3.5', { ...VALID, age: 3.5 }],
  ['role root', { ...VALID, role: 'root' }],
  ['zip abcde', { ...VALID, address: { ...VALID.address, zip: 'abcde' } }],
  ['empty tag', { ...VALID, tags: ['ok', ''] }],
  ['empty name', { ...VALID, name: '' }],
  ['missing priority', withoutPriority],
  ['age "30"', { ...VALID, age: '30' }],
  ['address without city', { ...VALID, address: { street: '1 Main St', zip: '12345' } }],
];

export type Workload = 'echo' | 'add' | 'validate';

/** The arguments of call number `i` of a workload, and the text its answer must carry. */
export function callFor(workload: Workload, i: number): { args: Record<string, unknown>; expected: string } {
  switch (workload) {
    case 'echo':
      return { args: { text: `hello ${i}` }, expected: `hello ${i}` };
    case 'add':
      return { args: { a: i, b: 0.5 }, expected: String(i + 0.5) };
    case 'validate':
      return { args: VALID, expected: VALID_TEXT };
  }
}
