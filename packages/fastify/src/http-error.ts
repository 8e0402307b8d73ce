import type { FastifyReply } from 'fastify';
import { errorResponse, type EncodeLimits, type McpError, type RequestId } from '@mcpkit/core';
import { sendJson } from './json-reply';

// An error body holds a message and maybe a little data: a small bound is plenty.
const ERROR_LIMITS: EncodeLimits = Object.freeze({ maxMessageBytes: 64 * 1024, maxBatchBytes: 64 * 1024 });

/** Answers with an HTTP status and a JSON-RPC error body, the request id when it is known. */
export function sendHttpError(reply: FastifyReply, status: number, error: McpError, id: RequestId | null = null, headers?: Record<string, string>): FastifyReply {
  if (headers) reply.headers(headers);
  return sendJson(reply, status, errorResponse(id, error), ERROR_LIMITS);
}

/** One header's value: the first when repeated, trimmed; undefined when absent or empty. */
export function headerValue(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  const trimmed = first?.trim();
  return trimmed ? trimmed : undefined;
}
