import { isObject } from '../protocol/json-rpc';
import type { ReadResourceResult, ResourceContents } from '../protocol/mcp-types';
import { bytesToBase64 } from './content';

function toContents(value: unknown, uri: string, mimeType: string | undefined): ResourceContents {
  const base = mimeType ? { uri, mimeType } : { uri };
  if (typeof value === 'string') return { ...base, text: value };
  if (value instanceof Uint8Array) return { ...base, blob: bytesToBase64(value) };
  if (isObject(value) && (typeof value.text === 'string' || typeof value.blob === 'string' || value.blob instanceof Uint8Array)) {
    const { blob, ...rest } = value;
    const contents = { ...base, ...rest } as Record<string, unknown>;
    if (blob !== undefined) contents.blob = blob instanceof Uint8Array ? bytesToBase64(blob) : blob;
    return contents as unknown as ResourceContents;
  }
  return { uri, mimeType: mimeType ?? 'application/json', text: JSON.stringify(value ?? null) };
}

/**
 * Wraps what a resource reader returned: a string is text, bytes are a base64 blob, a contents
 * object or a full `ReadResourceResult` passes through, anything else is sent as JSON.
 */
export function toReadResourceResult(value: unknown, uri: string, mimeType: string | undefined): ReadResourceResult {
  if (isObject(value) && Array.isArray(value.contents)) return value as unknown as ReadResourceResult;
  if (Array.isArray(value)) return { contents: value.map((item) => toContents(item, uri, mimeType)) };
  return { contents: [toContents(value, uri, mimeType)] };
}
