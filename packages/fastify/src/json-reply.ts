import type { FastifyReply } from 'fastify';
import { encodeMessage, errorResponse, InternalError, type EncodeLimits, type JsonRpcMessage, type Logger } from '@mcpkit/core';

/**
 * Answers with a JSON-RPC body serialised by core, never by Fastify: an answer too big or
 * impossible to serialise becomes a -32603 error for its id instead of a thrown error after the
 * status is chosen, and exact numeric ids keep the client's digits.
 */
export function sendJson(reply: FastifyReply, status: number, message: JsonRpcMessage | readonly JsonRpcMessage[], limits: EncodeLimits, logger?: Logger): FastifyReply {
  const text = encodeMessage(message, limits, logger) ?? encodeMessage(errorResponse(null, new InternalError()), limits)!;
  return reply.code(status).header('content-type', 'application/json').send(text);
}
