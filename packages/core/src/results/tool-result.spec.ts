import { audio, embeddedResource, image, resourceLink, text } from './content';
import { toCallToolResult, Unsendable } from './tool-result';

function problemOf(value: unknown): string {
  const result = toCallToolResult(value);
  if (!(result instanceof Unsendable)) throw new Error(`sendable: ${JSON.stringify(result)}`);
  return result.problem;
}

describe('toCallToolResult', () => {
  it('wraps strings, numbers, nothing and plain data as before', () => {
    expect(toCallToolResult('hi')).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    expect(toCallToolResult(3)).toEqual({ content: [{ type: 'text', text: '3' }] });
    expect(toCallToolResult(null)).toEqual({ content: [] });
    expect(toCallToolResult(undefined)).toEqual({ content: [] });
    expect(toCallToolResult({ a: 1 })).toEqual({ content: [{ type: 'text', text: '{"a":1}' }] });
    expect(toCallToolResult([])).toEqual({ content: [{ type: 'text', text: '[]' }] });
    // An object whose type names no content block is data, as is an array not made of blocks only.
    expect(toCallToolResult({ type: 'user', name: 'ada' })).toEqual({ content: [{ type: 'text', text: '{"type":"user","name":"ada"}' }] });
    expect(toCallToolResult([{ type: 'image', url: 'a' }, { type: 'video' }])).toEqual({
      content: [{ type: 'text', text: '[{"type":"image","url":"a"},{"type":"video"}]' }],
    });
  });

  it('passes valid blocks, block arrays and CallToolResults through untouched', () => {
    const block = text('a');
    expect((toCallToolResult(block) as { content: unknown[] }).content[0]).toBe(block);
    const blocks = [
      text('a', { priority: 1 }),
      image('AAAA', 'image/png'),
      audio(new Uint8Array([1]), 'audio/wav'),
      embeddedResource({ uri: 'x://t', text: 't' }),
      embeddedResource({ uri: 'x://b', blob: new Uint8Array([1]) }),
      resourceLink({ uri: 'x://l', name: 'l' }),
    ];
    expect((toCallToolResult(blocks) as { content: unknown[] }).content).toBe(blocks);
    const result = { content: blocks, isError: false, _meta: { k: 1 } };
    expect(toCallToolResult(result)).toBe(result);
    expect(toCallToolResult({ content: [] })).toEqual({ content: [] });
  });

  it.each([
    ['a text block without text', { type: 'text' }, 'content[0]: a text block needs a string text, got undefined'],
    ['a text block with a number', [text('ok'), { type: 'text', text: 5 }], 'content[1]: a text block needs a string text, got a number'],
    ['an image without data', { type: 'image', mimeType: 'image/png' }, 'content[0]: an image block needs its data as a base64 string, got undefined'],
    [
      'an image with bytes for data',
      { type: 'image', data: new Uint8Array([1]), mimeType: 'image/png' },
      'content[0]: an image block needs its data as a base64 string, got bytes (Uint8Array); image(bytes, mimeType) encodes bytes',
    ],
    ['an image without mimeType', { type: 'image', data: 'AAAA' }, 'content[0]: an image block needs a string mimeType'],
    ['an audio block without data', [{ type: 'audio', mimeType: 'audio/wav' }], 'content[0]: an audio block needs its data as a base64 string, got undefined'],
    ['a resource without contents', { type: 'resource' }, 'content[0]: a resource block needs a resource object, got undefined'],
    ['a resource without uri', { type: 'resource', resource: { text: 'x' } }, 'content[0]: a resource block needs a string resource.uri'],
    [
      'a resource with neither text nor blob',
      { type: 'resource', resource: { uri: 'x://y' } },
      'content[0]: a resource block needs a string resource.text or resource.blob',
    ],
    ['a resource_link without name', { type: 'resource_link', uri: 'x://y' }, 'content[0]: a resource_link block needs a string uri and name'],
  ])('refuses %s', (_, value, problem) => {
    expect(problemOf(value)).toBe(problem);
  });

  it("checks a returned CallToolResult's content: unknown types, missing types, non-objects", () => {
    expect(problemOf({ content: [text('a'), { type: 'video', url: 'x' }] })).toBe(
      'content[1]: has the unknown type "video" (a content block is text, image, audio, resource or resource_link)',
    );
    expect(problemOf({ content: [{ text: 'no type' }] })).toBe('content[0]: has no type (a content block is text, image, audio, resource or resource_link)');
    expect(problemOf({ content: ['just a string'] })).toBe('content[0]: is a string, not a content block');
    expect(problemOf({ content: [{ type: 'text' }], isError: true })).toBe('content[0]: a text block needs a string text, got undefined');
  });

  it('refuses a Map, a Set and bytes, saying what to return instead', () => {
    expect(problemOf(new Map([['a', 1]]))).toBe('returned a Map, which JSON would send as {}; return Object.fromEntries(map) or [...map] instead');
    expect(problemOf(new Set([1]))).toBe('returned a Set, which JSON would send as {}; return [...set] instead');
    expect(problemOf(Buffer.from('hi'))).toMatch(/^returned a Buffer; say what they are: image\(bytes, mimeType\)/);
    expect(problemOf(new Uint8Array([1]))).toMatch(/^returned bytes \(Uint8Array\); /);
    expect(problemOf(new ArrayBuffer(2))).toMatch(/^returned an ArrayBuffer; /);
  });
});
