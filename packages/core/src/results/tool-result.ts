import { isObject } from '../protocol/json-rpc';
import type { CallToolResult, ContentBlock } from '../protocol/mcp-types';
import { contentListProblem, contentProblem, describeValue } from './content-problem';

const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);

/** True for an object whose `type` names a content block (`{ type: 'text', … }` and friends); its fields are not checked. */
export function isContentBlock(value: unknown): value is ContentBlock {
  return isObject(value) && typeof value.type === 'string' && CONTENT_TYPES.has(value.type);
}

/** True for a value that already is a `CallToolResult`: it passes through once its content is checked. */
export function isCallToolResult(value: unknown): value is CallToolResult {
  return isObject(value) && Array.isArray(value.content);
}

/** Why a tool's return value cannot be sent (a class, so no returned object can pass for one). */
export class Unsendable {
  constructor(readonly problem: string) {}
}

const unsendable = (problem: string): Unsendable => new Unsendable(problem);

// Values JSON.stringify would silently turn into `{}` (Map, Set) or into something no client
// reads as intended (bytes): what their author meant is theirs to say.
function opaqueProblem(value: object): string | undefined {
  if (value instanceof Map) return 'returned a Map, which JSON would send as {}; return Object.fromEntries(map) or [...map] instead';
  if (value instanceof Set) return 'returned a Set, which JSON would send as {}; return [...set] instead';
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer)
    return `returned ${describeValue(value)}; say what they are: image(bytes, mimeType), audio(bytes, mimeType) or embeddedResource({ uri, blob: bytes })`;
  return undefined;
}

/**
 * Wraps whatever an unstructured tool returned into a `CallToolResult`, or says why it cannot be
 * sent: a content block (alone, in an array, or in a returned result's `content`) that is not
 * valid on the wire, a Map, a Set or bytes. A string or a valid block costs a few typeof checks.
 */
export function toCallToolResult(value: unknown): CallToolResult | Unsendable {
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (value === undefined || value === null) return { content: [] };
  if (typeof value !== 'object') return { content: [{ type: 'text', text: String(value) }] };
  if (Array.isArray(value)) {
    if (value.length === 0 || !value.every(isContentBlock)) return { content: [{ type: 'text', text: JSON.stringify(value) }] };
    const problem = contentListProblem(value);
    return problem === undefined ? { content: value } : unsendable(problem);
  }
  if (isCallToolResult(value)) {
    const problem = contentListProblem(value.content);
    return problem === undefined ? value : unsendable(problem);
  }
  if (isContentBlock(value)) {
    const problem = contentProblem(value);
    return problem === undefined ? { content: [value] } : unsendable(`content[0]: ${problem}`);
  }
  const opaque = opaqueProblem(value);
  return opaque === undefined ? { content: [{ type: 'text', text: JSON.stringify(value) }] } : unsendable(opaque);
}

/**
 * A structured result: `plain` (JSON-shaped already) as `structuredContent` plus its JSON `text`
 * as a text block (spec SHOULD).
 */
export function structuredResult(plain: Record<string, unknown>, text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: plain };
}

/** The `isError` result every tool failure becomes. */
export function toolErrorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
