/** What the testbed's tests share: testbed.md's valid `validate` input and result text. */
export { VALID } from '../src/examples';

/** The text of a result's first content block ('' when there is none). */
export function text(result: unknown): string {
  return ((result as { content: Array<{ text: string }> }).content[0] ?? { text: '' }).text;
}
