import { isObject } from '../protocol/json-rpc';
import type { GetPromptResult, PromptMessage } from '../protocol/mcp-types';
import { isContentBlock } from './tool-result';

function toMessage(value: unknown): PromptMessage {
  if (typeof value === 'string') return { role: 'user', content: { type: 'text', text: value } };
  if (isContentBlock(value)) return { role: 'user', content: value };
  return value as PromptMessage;
}

/** Wraps what a prompt returned: a string is one user message, an array is the messages. */
export function toGetPromptResult(value: unknown, description: string | undefined): GetPromptResult {
  if (isObject(value) && Array.isArray(value.messages)) return value as unknown as GetPromptResult;
  const messages = Array.isArray(value) ? value.map(toMessage) : [toMessage(value)];
  return description === undefined ? { messages } : { description, messages };
}
