import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthInfo } from '@mcpkit/core';
import { answerUnreadBody, hasUnreadBody, onClientGone, pipeStream, type DrainOptions, type HttpRequest, type HttpResult } from '@mcpkit/http';

/** Who the plugin's `onRequest` hook found a request to be (`null`: anonymous, allowed). */
export const authenticated = new WeakMap<FastifyRequest, AuthInfo | null>();

/** A Fastify request as the core reads it; `path` is the route's own, whatever prefix it is mounted under. */
export function toHttpRequest(request: FastifyRequest, reply: FastifyReply, path: string): HttpRequest {
  const raw = reply.raw;
  // The closure below outlives the request as long as its stream (hours, for a listen): it holds
  // the Node objects, not the Fastify request and its body.
  const incoming = request.raw;
  const auth = authenticated.get(request);
  // A getter (trustProxy reads the forwarding headers): read once.
  const ip = request.ip;
  const socket = request.socket;
  // One shape for every request (`auth` undefined when no hook decided it: core admits it then).
  return {
    auth,
    method: request.method,
    path,
    query: request.query as HttpRequest['query'],
    headers: request.headers,
    // Bodies stay strings (the plugin's parser), parsed once by core.
    body: typeof request.body === 'string' ? request.body : undefined,
    logger: request.log,
    remoteAddress: ip,
    // The socket's port belongs to the address only when no trusted proxy put another one there.
    remotePort: ip === socket.remoteAddress ? socket.remotePort : undefined,
    httpVersion: request.raw.httpVersion,
    onClose: (listener) => onClientGone(incoming, raw, listener),
  };
}

/**
 * Writes the core's answer: a body through Fastify, or the head and then the events straight to
 * the socket. With `drain`, an answer to a body refused unread (`413`, `415`) is followed by
 * reading what the client still sends, within those bounds, before the connection closes.
 */
export function send(reply: FastifyReply, result: HttpResult, drain?: DrainOptions): FastifyReply {
  const raw = reply.raw;
  if (!('stream' in result)) {
    if (drain === undefined || !hasUnreadBody(reply.request.raw)) return reply.code(result.status).headers(result.headers).send(result.body);
    reply.hijack();
    answerUnreadBody(reply.request.raw, raw, result, drain, reply.getHeaders());
    return reply;
  }
  reply.hijack();
  // Headers the host's hooks set on the reply come first, as Fastify would send them.
  pipeStream(raw, result, reply.getHeaders() as Record<string, string>);
  return reply;
}
