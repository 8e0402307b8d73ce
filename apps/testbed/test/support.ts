/** What the testbed's tests share: a valid `validate` input (testbed.md) and result text. */
export const VALID = {
  name: 'Ada',
  email: 'ada@example.com',
  age: 36,
  score: 99.5,
  role: 'admin',
  active: true,
  tags: ['math', 'engines'],
  address: { street: '1 Main St', city: 'London', zip: '12345' },
  priority: 3,
};

/** The text of a result's first content block ('' when there is none). */
export function text(result: unknown): string {
  return ((result as { content: Array<{ text: string }> }).content[0] ?? { text: '' }).text;
}
