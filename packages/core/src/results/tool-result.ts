import { isObject } from '../protocol/json-rpc';
import type { CallToolResult, ContentBlock } from '../protocol/mcp-types';

const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);

/** True for one content block (`{ type: 'text', … }` and friends). */
export function isContentBlock(value: unknown): value is ContentBlock {
  return isObject(value) && typeof value.type === 'string' && CONTENT_TYPES.has(value.type);
}

/** True for a value that already is a `CallToolResult`: it passes through untouched. */
export function isCallToolResult(value: unknown): value is CallToolResult {
  return isObject(value) && Array.isArray(value.content);
}

/** Wraps whatever an unstructured tool returned into a `CallToolResult`. */
export function toCallToolResult(value: unknown): CallToolResult {
  if (isCallToolResult(value)) return value;
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (value === undefined || value === null) return { content: [] };
  if (isContentBlock(value)) return { content: [value] };
  if (Array.isArray(value) && value.length > 0 && value.every(isContentBlock)) return { content: value };
  if (typeof value === 'object') return { content: [{ type: 'text', text: JSON.stringify(value) }] };
  return { content: [{ type: 'text', text: String(value) }] };
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
