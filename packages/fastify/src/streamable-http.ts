import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ErrorCode,
  errorResponse,
  hasModernClaim,
  InternalError,
  isObject,
  UnsupportedProtocolVersionError,
  InvalidRequestError,
  LEGACY_PROTOCOL_VERSIONS,
  parseMessage,
  type Connection,
  type JsonRpcResponse,
  type TransportInfo,
} from '@mcpkit/core';
import { acceptsJsonAndSse, acceptsSse } from './accept';
import { containsRequest, idOf, isInitializeRequest, requestIds } from './classify';
import { headerValue, sendHttpError } from './http-error';
import { sendJson } from './json-reply';
import { checkModernHeaders, isModernVersion, protocolVersionHeader } from './modern-http';
import type { ResolvedHttpOptions } from './options';
import type { LiveSession, SessionRegistry } from './session-registry';
import { SSE_HEADERS, SseStream, streamOfEventId, type SseStreamOptions } from './sse-stream';

const SERVED_VERSIONS: ReadonlySet<string> = new Set(LEGACY_PROTOCOL_VERSIONS);
// Streamable HTTP, "Protocol Version Header": without the header, assume 2025-03-26.
const VERSION_WITHOUT_HEADER = '2025-03-26';
// The one revision with JSON-RPC batches.
const BATCH_VERSION = '2025-03-26';

type Headers = Record<string, string | number | string[] | undefined>;

const MALFORMED: ReadonlySet<number> = new Set([ErrorCode.ParseError, ErrorCode.InvalidRequest]);
// 2026-07-28 status table (protocol.md §4.4): these are 400, an unknown method 404.
const MODERN_BAD_REQUEST: ReadonlySet<number> = new Set([ErrorCode.ParseError, ErrorCode.InvalidRequest, ErrorCode.InvalidParams, -32020, -32021, -32022]);

/** A message that was not a valid request is the client's fault (4xx); other errors are answers (200). */
function statusOf(answer: JsonRpcResponse | JsonRpcResponse[], modern: boolean): number {
  if (Array.isArray(answer) || !('error' in answer)) return 200;
  if (modern) return answer.error.code === ErrorCode.MethodNotFound ? 404 : MODERN_BAD_REQUEST.has(answer.error.code) ? 400 : 200;
  return answer.id === null || MALFORMED.has(answer.error.code) ? 400 : 200;
}

function succeeded(answer: JsonRpcResponse | JsonRpcResponse[] | undefined): boolean {
  return answer !== undefined && !Array.isArray(answer) && 'result' in answer;
}

/**
 * What a POST in json mode says when every request it carried was cancelled
 * (notifications/cancelled): there is no result, but a JSON POST must end with a body, so each
 * id gets an error that says why.
 */
function cancelledAnswer(message: unknown): JsonRpcResponse | JsonRpcResponse[] {
  const answers = requestIds(message).map((id) => errorResponse(id, new InternalError('Request cancelled: the client sent notifications/cancelled, so no result follows')));
  return Array.isArray(message) ? answers : answers[0];
}

/**
 * The Streamable HTTP endpoint (2025-03-26 … 2025-11-25): POST carries client messages, GET
 * opens the session's stream or resumes one, DELETE ends the session. Only transport matters
 * here; every protocol answer comes from core.
 */
export class StreamableHttpEndpoint {
  constructor(
    private readonly options: ResolvedHttpOptions,
    private readonly registry: SessionRegistry | undefined,
  ) {}

  readonly post = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    if (!acceptsJsonAndSse(request.headers.accept)) {
      return sendHttpError(reply, 406, new InvalidRequestError('Not Acceptable: the Accept header must list both application/json and text/event-stream'));
    }
    if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) {
      return sendHttpError(reply, 415, new InvalidRequestError('Unsupported Media Type: send the JSON-RPC message as application/json'));
    }
    const frame = parseMessage(typeof request.body === 'string' ? request.body : '');
    if (!frame.ok) return sendJson(reply, 400, frame.response, this.options.limits);
    const message = frame.message;
    const version = protocolVersionHeader(request.headers);
    const modernHeader = isModernVersion(version);
    if (version !== undefined && !SERVED_VERSIONS.has(version) && !modernHeader) {
      // -32022 is the answer a modern client recognises; a legacy one just sees a 400.
      return sendHttpError(reply, 400, new UnsupportedProtocolVersionError(version), idOf(message));
    }
    const transport: TransportInfo = { kind: 'http', headers: request.headers };
    if (modernHeader || (isObject(message) && hasModernClaim(message.params))) return this.modern(request, reply, message);

    if (!this.registry) {
      // Without a session, only the header says a client negotiated 2025-03-26; a missing header
      // defaults to it, but a batch must not run on a guess.
      if (Array.isArray(message) && version !== BATCH_VERSION) {
        return sendHttpError(reply, 400, new InvalidRequestError(`JSON-RPC batches need MCP-Protocol-Version: ${BATCH_VERSION} on a stateless server`));
      }
      const connection = isInitializeRequest(message)
        ? this.options.app.connect(transport, { sessionless: true })
        : this.options.app.connect(transport, { sessionless: true, initialized: { protocolVersion: version ?? VERSION_WITHOUT_HEADER, capabilities: {} } });
      return this.dispatch(request, reply, connection, undefined, message, false);
    }

    let session: LiveSession | undefined;
    const fresh = isInitializeRequest(message);
    if (fresh) {
      session = this.registry.create(request.headers);
      if (!session) return sendHttpError(reply, 503, new InvalidRequestError('Too many sessions; try again later'), idOf(message), { 'retry-after': '5' });
    } else {
      const id = headerValue(request.headers['mcp-session-id']);
      if (id === undefined) return sendHttpError(reply, 400, new InvalidRequestError('Missing Mcp-Session-Id header: send initialize first'), idOf(message));
      session = await this.registry.acquire(id);
      if (!session) return sendHttpError(reply, 404, new InvalidRequestError('Session not found: it ended or never existed; initialize a new one'), idOf(message));
    }
    // The session is held (busy) until this POST is answered or its client goes.
    let held = true;
    const letGo = (): void => {
      if (held) session.leave();
      held = false;
    };
    try {
      return await this.dispatch(request, reply, session.connection, session, message, fresh, false, letGo);
    } finally {
      letGo();
    }
  };

  readonly get = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    if (!this.registry || !this.options.standaloneStream || isModernVersion(protocolVersionHeader(request.headers))) return this.methodNotAllowed(reply);
    if (!acceptsSse(request.headers.accept)) return sendHttpError(reply, 406, new InvalidRequestError('Not Acceptable: the Accept header must list text/event-stream'));
    const session = await this.sessionOf(request, reply);
    if (!session) return reply;
    try {
      const lastEventId = headerValue(request.headers['last-event-id']);
      if (lastEventId !== undefined) return await this.resume(reply, session, lastEventId);
      if (session.standaloneStream?.isAttached) {
        return sendHttpError(reply, 409, new InvalidRequestError('Conflict: this session already has an open GET stream'));
      }
      const stream = session.standaloneStream ?? session.openStream('g');
      reply.hijack();
      stream.attach(reply.raw, this.streamHeaders(reply, session));
      return reply;
    } finally {
      // From here on the attached stream (if any) holds the session while its reader stays.
      session.leave();
    }
  };

  readonly delete = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    if (!this.registry || isModernVersion(protocolVersionHeader(request.headers))) return this.methodNotAllowed(reply);
    const session = await this.sessionOf(request, reply);
    if (!session) return reply;
    await this.registry.delete(session.id);
    session.leave();
    return reply.code(200).send();
  };

  readonly methodNotAllowed = (reply: FastifyReply): FastifyReply =>
    sendHttpError(reply, 405, new InvalidRequestError('Method Not Allowed'), null, { allow: this.registry ? 'GET, POST, DELETE' : 'POST' });

  private readonly headerParamsOf = (tool: string) => this.options.app.map.tools.get(tool)?.headerParams;

  /**
   * A 2026-07-28 POST: no session (an `Mcp-Session-Id` is ignored), headers checked against the
   * body (-32020), then served statelessly by core, JSON or SSE, with the modern status codes.
   */
  private async modern(request: FastifyRequest, reply: FastifyReply, message: unknown): Promise<FastifyReply> {
    if (!isObject(message)) return sendHttpError(reply, 400, new InvalidRequestError('A 2026-07-28 POST carries one JSON-RPC message (no batches)'));
    if (message.id !== undefined && typeof message.method === 'string') {
      try {
        checkModernHeaders(request.headers, message, this.headerParamsOf);
      } catch (error) {
        return sendHttpError(reply, 400, error as InvalidRequestError, idOf(message));
      }
    }
    const connection = this.options.app.connect({ kind: 'http', headers: request.headers }, { sessionless: true });
    return this.dispatch(request, reply, connection, undefined, message, false, true);
  }

  /** The session a GET or DELETE names, held for the caller (who leaves it); undefined once answered with an error. */
  private async sessionOf(request: FastifyRequest, reply: FastifyReply): Promise<LiveSession | undefined> {
    const version = headerValue(request.headers['mcp-protocol-version']);
    if (version !== undefined && !SERVED_VERSIONS.has(version)) {
      sendHttpError(reply, 400, new InvalidRequestError(`Unsupported MCP-Protocol-Version: ${version}`, { supported: LEGACY_PROTOCOL_VERSIONS }));
      return undefined;
    }
    const id = headerValue(request.headers['mcp-session-id']);
    if (id === undefined) {
      sendHttpError(reply, 400, new InvalidRequestError('Missing Mcp-Session-Id header'));
      return undefined;
    }
    const session = await this.registry!.acquire(id);
    if (!session) sendHttpError(reply, 404, new InvalidRequestError('Session not found: it ended or never existed; initialize a new one'));
    return session;
  }

  /** GET with Last-Event-ID: what the stream missed, then whatever it still has to say. */
  private async resume(reply: FastifyReply, session: LiveSession, lastEventId: string): Promise<FastifyReply> {
    const streamId = streamOfEventId(lastEventId);
    const missed = streamId === undefined ? undefined : await this.options.eventStore.after(session.id, streamId, lastEventId);
    if (streamId === undefined || missed === undefined) {
      return sendHttpError(reply, 400, new InvalidRequestError('Unknown Last-Event-ID: nothing can be replayed from it'));
    }
    const live = session.streams.get(streamId);
    reply.hijack();
    if (live) {
      live.attach(reply.raw, this.streamHeaders(reply, session), missed);
      session.release(live);
    } else {
      // The stream has finished: replay what was missed and end.
      const finished = new SseStream(streamId, this.plainStreamOptions());
      finished.complete();
      finished.attach(reply.raw, this.streamHeaders(reply, session), missed);
    }
    return reply;
  }

  private streamHeaders(reply: FastifyReply, session: LiveSession | undefined): Headers {
    const headers: Headers = { ...(reply.getHeaders() as Headers) };
    if (session) headers['mcp-session-id'] = session.id;
    return headers;
  }

  /** Options of a stream nobody can resume (stateless, or a replay that ends at once). */
  private plainStreamOptions(): SseStreamOptions {
    return { priming: false, retryMs: this.options.retryMs, keepAliveMs: 0, limits: this.options.limits, maxBufferedBytes: this.options.maxEventBytesPerSession };
  }

  /**
   * Runs the message through core and answers: 202, JSON, or an SSE stream (responseMode). Every
   * POST that carried a request ends with an answer or an ended stream, whatever throws where.
   */
  private async dispatch(
    request: FastifyRequest,
    reply: FastifyReply,
    connection: Connection,
    session: LiveSession | undefined,
    message: unknown,
    fresh: boolean,
    modern = false,
    letGo?: () => void,
  ): Promise<FastifyReply> {
    const transport: TransportInfo = { kind: 'http', headers: request.headers };
    // Fastify's request.log carries its reqId; a session's lines also say which session (as a
    // field: a child of the per-request logger would cost ~10 µs a request).
    const logger = request.log;
    const logBindings = session ? session.logBindings : undefined;
    const limits = this.options.limits;
    if (!containsRequest(message)) {
      const answer = await connection.receive(message, { logger, transport, modern, logBindings });
      if (answer === undefined) return reply.code(202).send();
      return sendJson(reply, 400, answer, limits, logger);
    }

    let stream: SseStream | undefined;
    const openStream = (): SseStream => {
      stream = session ? session.openStream('s') : new SseStream('s', { ...this.plainStreamOptions(), logger });
      reply.hijack();
      stream.attach(reply.raw, this.streamHeaders(reply, session));
      return stream;
    };
    reply.raw.once('close', () => {
      // Closed before the answer was out: the client went away.
      if (reply.raw.writableFinished) return;
      // Stateless: nobody can fetch the answer later, so a client that leaves cancels the work.
      if (!session) connection.close();
      // A session's work runs on (its answer can be resumed), but no longer holds the session:
      // with its client gone, idle expiry or eviction may end it, and whatever it still runs.
      else letGo?.();
    });
    // Modern requests stream only once they have something to stream: their errors need the
    // HTTP statuses of the 2026-07-28 table, which a stream opened up front would hide.
    if (this.options.responseMode === 'sse' && !modern) openStream();
    const send = this.options.responseMode === 'json' ? undefined : (related: Parameters<SseStream['send']>[0]) => (stream ?? openStream()).send(related);

    // SSE polling: end this connection but keep the stream; the client resumes with Last-Event-ID.
    const detach = session
      ? () => {
          const current = stream ?? openStream();
          current.end();
        }
      : undefined;
    let answer: JsonRpcResponse | JsonRpcResponse[] | undefined;
    try {
      answer = await connection.receive(message, { logger, send, transport, detach, modern, logBindings });
    } catch (error) {
      // Core answers every request itself; this is a bug, but the client must not hang on it.
      logger.error({ err: error }, 'unexpected dispatcher failure');
      if (fresh && session) this.registry!.discard(session);
      if (!stream) throw error;
      stream.complete();
      session?.release(stream);
      return reply;
    }
    if (fresh && session) {
      // A client that left before its initialize was answered may have lost its session already.
      if (succeeded(answer) && this.registry!.has(session)) await this.registry!.activate(session);
      else this.registry!.discard(session);
    }
    if (stream) {
      // Cancelled requests get nothing on their stream (utilities/cancellation): it just ends.
      stream.complete(answer);
      session?.release(stream);
      return reply;
    }
    if (answer === undefined) {
      // Every request was cancelled. The client expects no response for them (utilities/
      // cancellation), yet the POST must end: with an empty stream, or in json mode an error.
      if (this.options.responseMode === 'json') return sendJson(reply, 200, cancelledAnswer(message), limits, logger);
      const empty = new SseStream('s', this.plainStreamOptions());
      empty.complete();
      reply.hijack();
      empty.attach(reply.raw, this.streamHeaders(reply, session));
      return reply;
    }
    if (fresh && session && succeeded(answer)) reply.header('mcp-session-id', session.id);
    return sendJson(reply, statusOf(answer, modern), answer, limits, logger);
  }
}

export { SSE_HEADERS };
