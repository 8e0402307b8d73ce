import type { JsonRpcMessage } from '@mcpkit/core';
import { isObject } from '@mcpkit/core/transport';

const VISIBLE_ASCII = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
const SENTINEL = /^=\?base64\?.*\?=$/;

/**
 * A header value as 2026-07-28 sends it: as is when it is visible ASCII without edge spaces,
 * else `=?base64?…?=` of its UTF-8.
 */
export function headerValue(value: string): string {
  if (VISIBLE_ASCII.test(value) && !SENTINEL.test(value)) return value;
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/**
 * The standard headers of a 2026-07-28 POST: `Mcp-Method`, and `Mcp-Name` for calls, prompts,
 * reads and tasks; `argumentHeaders` adds those a call's arguments ask for (`Mcp-Param-*`).
 */
export function modernHeaders(message: JsonRpcMessage, argumentHeaders?: (tool: unknown, args: unknown) => Record<string, string>): Record<string, string> {
  if (!('method' in message)) return {};
  const headers: Record<string, string> = { 'mcp-method': headerValue(message.method) };
  const params = isObject(message.params) ? message.params : {};
  const name =
    message.method === 'tools/call' || message.method === 'prompts/get'
      ? params.name
      : message.method === 'resources/read'
        ? params.uri
        : message.method.startsWith('tasks/')
          ? params.taskId
          : undefined;
  if (typeof name === 'string') headers['mcp-name'] = headerValue(name);
  return message.method === 'tools/call' && argumentHeaders ? { ...headers, ...argumentHeaders(name, params.arguments) } : headers;
}
