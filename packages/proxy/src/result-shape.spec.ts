import { shapeProblem } from './result-shape';

describe('shapeProblem', () => {
  it.each([
    ['tool', { content: [{ type: 'text', text: 'ok' }] }, undefined],
    ['tool', { content: 'text' }, 'its content is not a list'],
    ['tool', {}, 'its content is not a list'],
    ['tool', { content: [null] }, 'its content holds something that is not an object'],
    ['prompt', { messages: [] }, undefined],
    ['prompt', { messages: {} }, 'its messages is not a list'],
    ['resource', { contents: [{ uri: 'a://b', text: '' }] }, undefined],
    ['resource', { contents: [['nested']] }, 'its contents holds something that is not an object'],
  ] as const)('%s %j: %s', (kind, result, problem) => {
    expect(shapeProblem(kind, result)).toBe(problem);
  });
});
