import type { FastifyReply } from 'fastify';
import { errorResponse, type McpError, type RequestId } from '@mcpkit/core';

/** Answers with an HTTP status and a JSON-RPC error body, the request id when it is known. */
export function sendHttpError(reply: FastifyReply, status: number, error: McpError, id: RequestId | null = null, headers?: Record<string, string>): FastifyReply {
  if (headers) reply.headers(headers);
  return reply.code(status).header('content-type', 'application/json').send(errorResponse(id, error));
}

/** One header's value: the first when repeated, trimmed; undefined when absent or empty. */
export function headerValue(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  const trimmed = first?.trim();
  return trimmed ? trimmed : undefined;
}
