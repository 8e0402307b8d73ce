import { type RequestId } from '@mcpkit/core';
import { isObject, isRequestId } from '@mcpkit/core/transport';

/** A single `initialize` request. */
export function isInitializeRequest(message: unknown): boolean {
  return isObject(message) && message.method === 'initialize' && message.id !== undefined;
}

function isRequest(message: unknown): boolean {
  return isObject(message) && typeof message.method === 'string' && message.id !== undefined && message.id !== null;
}

/** True when the body holds at least one request, so it gets an answer (JSON or SSE), not 202. */
export function containsRequest(message: unknown): boolean {
  return Array.isArray(message) ? message.some(isRequest) : isRequest(message);
}

/** The request id of a single message, for error bodies. */
export function idOf(message: unknown): RequestId | null {
  return isObject(message) && isRequestId(message.id) ? message.id : null;
}

/** The ids of the requests a body carries (one message or a batch), in order. */
export function requestIds(message: unknown): RequestId[] {
  const messages = Array.isArray(message) ? message : [message];
  const ids: RequestId[] = [];
  for (const element of messages) if (isObject(element) && typeof element.method === 'string' && isRequestId(element.id)) ids.push(element.id);
  return ids;
}
