import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { encodeMessage, InvalidRequestError, parseMessage, type Connection, type EncodeLimits, type JsonRpcMessage, type JsonRpcResponse, type Logger, type McpApp } from '@mcpkit/core';
import { acceptsSse } from './accept';
import { headerValue, sendHttpError } from './http-error';
import { sendJson } from './json-reply';
import { SSE_HEADERS } from './sse-stream';

interface LegacySession {
  connection: Connection;
  response: ServerResponse;
  keepAlive: NodeJS.Timeout | undefined;
}

/** How the legacy stream writes: the bounds of one message and of what waits for a slow reader. */
export interface LegacyWriteOptions {
  limits: EncodeLimits;
  maxBufferedBytes: number;
}

/**
 * The 2024-11-05 HTTP+SSE transport, for clients that predate Streamable HTTP: GET opens a
 * stream whose first event names the POST endpoint; every answer travels on that stream.
 */
export class LegacySseEndpoints {
  private readonly sessions = new Map<string, LegacySession>();

  constructor(
    private readonly app: McpApp,
    /** Absolute path of the messages endpoint, prefix included. */
    private readonly messagesUrl: string,
    private readonly keepAliveMs: number,
    private readonly writeOptions: LegacyWriteOptions,
  ) {}

  /** Writes one message, never throwing; a client that does not read loses its stream rather than grow our buffer. */
  private write(response: ServerResponse, message: JsonRpcMessage | JsonRpcResponse[], logger?: Logger): void {
    if (response.writableEnded || response.destroyed) return;
    if (response.writableLength > this.writeOptions.maxBufferedBytes) {
      response.destroy();
      return;
    }
    const data = encodeMessage(message, this.writeOptions.limits, logger);
    if (data !== undefined) response.write(`event: message\ndata: ${data}\n\n`);
  }

  /** Open streams. */
  get size(): number {
    return this.sessions.size;
  }

  readonly open = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    if (!acceptsSse(request.headers.accept)) return sendHttpError(reply, 406, new InvalidRequestError('Not Acceptable: the Accept header must list text/event-stream'));
    const id = randomBytes(24).toString('base64url');
    const connection = this.app.connect({ kind: 'http', headers: request.headers }, { sessionId: id });
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, { ...(reply.getHeaders() as Record<string, string>), ...SSE_HEADERS });
    response.write(`event: endpoint\ndata: ${this.messagesUrl}?sessionId=${id}\n\n`);
    const keepAlive = this.keepAliveMs > 0 ? setInterval(() => response.write(': keepalive\n\n'), this.keepAliveMs) : undefined;
    keepAlive?.unref();
    this.sessions.set(id, { connection, response, keepAlive });
    connection.setOutbound((message) => this.write(response, message));
    response.on('close', () => this.end(id));
    return reply;
  };

  readonly message = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const id = headerValue((request.query as Record<string, string | string[] | undefined>).sessionId);
    if (id === undefined) return sendHttpError(reply, 400, new InvalidRequestError('Missing sessionId query parameter'));
    const session = this.sessions.get(id);
    if (!session) return sendHttpError(reply, 404, new InvalidRequestError('Session not found: open the SSE stream again'));
    if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) {
      return sendHttpError(reply, 415, new InvalidRequestError('Unsupported Media Type: send the JSON-RPC message as application/json'));
    }
    const frame = parseMessage(typeof request.body === 'string' ? request.body : '');
    if (!frame.ok) return sendJson(reply, 400, frame.response, this.writeOptions.limits);
    const send = (message: JsonRpcMessage) => this.write(session.response, message, request.log);
    session.connection
      .receive(frame.message, { logger: request.log, send, transport: { kind: 'http', headers: request.headers } })
      .then((answer) => answer !== undefined && this.write(session.response, answer, request.log))
      .catch((error: unknown) => request.log.error({ err: error }, 'unexpected dispatcher failure'));
    return reply.code(202).send();
  };

  /** Ends every stream (shutdown). */
  closeAll(): void {
    for (const id of [...this.sessions.keys()]) this.end(id);
  }

  private end(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    if (session.keepAlive) clearInterval(session.keepAlive);
    session.connection.close();
    if (!session.response.writableEnded) session.response.end();
  }
}
