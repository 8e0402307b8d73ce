import { clip } from '../errors/clip';
import { isObject } from '../protocol/json-rpc';

const CONTENT_TYPES = 'text, image, audio, resource or resource_link';

/** What a value is, in the words of a log line about it. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Map) return 'a Map';
  if (value instanceof Set) return 'a Set';
  if (Buffer.isBuffer(value)) return 'a Buffer';
  if (ArrayBuffer.isView(value)) return `bytes (${value.constructor.name})`;
  if (value instanceof ArrayBuffer) return 'an ArrayBuffer';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function binary(block: Record<string, unknown>, helper: string): string | undefined {
  const { data } = block;
  if (typeof data !== 'string')
    return `an ${String(block.type)} block needs its data as a base64 string, got ${describeValue(data)}${ArrayBuffer.isView(data) ? `; ${helper}(bytes, mimeType) encodes bytes` : ''}`;
  return typeof block.mimeType === 'string' ? undefined : `an ${String(block.type)} block needs a string mimeType`;
}

function embedded(resource: unknown): string | undefined {
  if (!isObject(resource)) return `a resource block needs a resource object, got ${describeValue(resource)}`;
  if (typeof resource.uri !== 'string') return 'a resource block needs a string resource.uri';
  if (typeof resource.text === 'string' || typeof resource.blob === 'string') return undefined;
  return ArrayBuffer.isView(resource.blob)
    ? 'a resource block needs resource.blob as a base64 string (embeddedResource({ uri, blob }) encodes bytes)'
    : 'a resource block needs a string resource.text or resource.blob';
}

/**
 * Why `block` is not a content block a client can read (schema `ContentBlock`), or undefined
 * when it is. The usual valid block costs a switch and a typeof or two, and allocates nothing.
 */
export function contentProblem(block: unknown): string | undefined {
  if (!isObject(block)) return `is ${describeValue(block)}, not a content block`;
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? undefined : `a text block needs a string text, got ${describeValue(block.text)}`;
    case 'image':
      return binary(block, 'image');
    case 'audio':
      return binary(block, 'audio');
    case 'resource':
      return embedded(block.resource);
    case 'resource_link':
      return typeof block.uri === 'string' && typeof block.name === 'string' ? undefined : 'a resource_link block needs a string uri and name';
    default:
      return typeof block.type === 'string'
        ? `has the unknown type "${clip(block.type, 40)}" (a content block is ${CONTENT_TYPES})`
        : `has no type (a content block is ${CONTENT_TYPES})`;
  }
}

/** The first problem among `content`'s blocks, named by index (`content[2]: …`), or undefined. */
export function contentListProblem(content: readonly unknown[]): string | undefined {
  for (let index = 0; index < content.length; index++) {
    const problem = contentProblem(content[index]);
    if (problem !== undefined) return `content[${index}]: ${problem}`;
  }
  return undefined;
}
