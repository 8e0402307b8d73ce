import { type RequestId } from '@mcpkit/core';
import { classify, isObject, isRequestId, type MessageBody } from '@mcpkit/core/transport';

/**
 * A POST body, read once: a single message becomes its frame (kind, id, method, `_meta`, era,
 * target), which every later step reads; a batch stays an array, classified element by element
 * when core serves it.
 */
export function bodyOf(message: unknown): MessageBody {
  return Array.isArray(message) ? message : classify(message);
}

/** A single `initialize` request. */
export function isInitializeRequest(body: MessageBody): boolean {
  return !Array.isArray(body) && body.kind === 'request' && body.method === 'initialize';
}

function isRequest(message: unknown): boolean {
  return isObject(message) && typeof message.method === 'string' && message.id !== undefined && message.id !== null;
}

/** True when the body holds at least one request, so it gets an answer (JSON or SSE), not 202. */
export function containsRequest(body: MessageBody): boolean {
  // A malformed message that asked for an answer (a method and an id) is answered like a request.
  return Array.isArray(body) ? body.some(isRequest) : body.kind === 'request' || (body.kind === 'invalid' && body.method !== '');
}

/** How many requests a body carries (one message or a batch): what its stream runs. */
export function requestCount(body: MessageBody): number {
  return Array.isArray(body) ? body.filter(isRequest).length : 1;
}

/** The request id of a single message, for error bodies. */
export function idOf(body: MessageBody): RequestId | null {
  return Array.isArray(body) ? null : body.id;
}

/** The ids of the requests a body carries (one message or a batch), in order. */
export function requestIds(body: MessageBody): RequestId[] {
  if (!Array.isArray(body)) return body.kind === 'request' && body.id !== null ? [body.id] : [];
  const ids: RequestId[] = [];
  for (const element of body) if (isObject(element) && typeof element.method === 'string' && isRequestId(element.id)) ids.push(element.id);
  return ids;
}
