import type { JsonRpcResponse, Logger, McpError, TransportInfo } from '@mcpkit/core';
import {
  encodeMessage,
  errorResponse,
  logRefused,
  isServedVersion,
  parseMessage,
  principalOf,
  sessionlessBatchError,
  sessionlessClient,
  SUBSCRIPTIONS_LISTEN,
  type Connection,
  type Frame,
  type MessageBody,
  type ReceiveOptions,
} from '@mcpkit/core/transport';
import { acceptsJsonAndSse, acceptsSse, isCompressed, isJsonContentType } from './accept';
import { bodyOf, containsRequest, idOf, isInitializeRequest, requestCount, requestIds } from './classify';
import { EventStream } from './event-stream';
import { eraOf, versionOf, type HttpEra } from './http-era';
import { headerValue, type HttpRequest, type HttpResult, type HttpStreamResult } from './http-result';
import type { ResourceServer } from './resource-server';
import type { ResolvedHttpOptions } from './options';
import type { AtCapacity, LiveSession, SessionRegistry } from './session-registry';
import { SessionRecordTooLargeError } from './session-store';
import { namesRoutedStream, parseRoutedEventId } from './routed-position';
import type { RoutedSessions } from './routed-sessions';
import { OpenListens, type ListenSlot } from './open-listens';
import { AnswerHead } from './answer-head';
import { DetachedRequests } from './detached-requests';
import { SSE_HEADERS, SseStream, streamOfEventId, type SseStreamOptions } from './sse-stream';
import { answerResult, bodyResult, eraAnswerResult, FAULTS, faultResult, REQUEST_FAULTS, streamResult, type Fault } from './transport-faults';

function succeeded(answer: JsonRpcResponse | JsonRpcResponse[] | undefined): boolean {
  return answer !== undefined && !Array.isArray(answer) && 'result' in answer;
}

/**
 * What a POST in json mode says when every request it carried was cancelled
 * (notifications/cancelled): there is no result, but a JSON POST must end with a body, so each
 * id gets an error that says why.
 */
function cancelledAnswer(body: MessageBody): JsonRpcResponse | JsonRpcResponse[] {
  return errorResponses(body, REQUEST_FAULTS.cancelled());
}

/** The same error for every request of a body (one answer, or a batch's). */
function errorResponses(body: MessageBody, error: McpError): JsonRpcResponse | JsonRpcResponse[] {
  const answers = requestIds(body).map((id) => errorResponse(id, error));
  return Array.isArray(body) ? answers : answers[0];
}

/** An `Accept` header as one string (a framework may hand repeated ones over as a list). */
function acceptOf(request: HttpRequest): string | undefined {
  const accept = request.headers.accept;
  return Array.isArray(accept) ? accept.join(', ') : accept;
}

/**
 * The Streamable HTTP endpoint, every revision: POST carries client messages, GET opens the
 * session's stream or resumes one, DELETE ends the session. Only transport matters here; every
 * protocol answer, and every rule that differs between eras, comes from core.
 */
export class StreamableHttpEndpoint {
  private readonly listens: OpenListens;
  private readonly detached: DetachedRequests;

  constructor(
    private readonly options: ResolvedHttpOptions,
    private readonly registry: SessionRegistry | undefined,
    private readonly logger: Logger,
    private readonly resourceServer?: ResourceServer,
    private readonly routed?: RoutedSessions,
    /** With an endpoint rate limit: the `429` for a batch whose further messages the caller has no tokens for. */
    private readonly countBatch?: (request: HttpRequest, extra: number) => Promise<HttpResult | undefined>,
  ) {
    this.listens = new OpenListens(options.maxListens, logger);
    this.detached = new DetachedRequests(options.maxDetachedRequests, options.detachedRequestTimeoutMs, logger);
  }

  /** Ends every open `subscriptions/listen` (shutdown): each stream ends, as a cancellation would end it. */
  close(): void {
    this.listens.endAll();
    this.detached.clear();
  }

  async post(request: HttpRequest): Promise<HttpResult> {
    const unreadable = postHeaderFault(request);
    if (unreadable) return unreadable;
    const frame = parseMessage(request.body ?? '');
    if (!frame.ok) return answerResult('unparsable', frame.response, this.options.limits);
    const message = bodyOf(frame.message);
    if (this.countBatch !== undefined && Array.isArray(message) && message.length > 1) {
      const over = await this.countBatch(request, message.length - 1);
      if (over !== undefined) return this.audited(request, message, over, REQUEST_FAULTS.rateLimited(), 'rate_limited');
    }
    const version = versionOf(request.headers);
    if (version !== undefined && !isServedVersion(version)) {
      // -32022 is the answer a client of the modern era recognises; others just see a 400.
      return this.refuse(request, message, FAULTS.unsupportedVersion(version));
    }
    const era = eraOf(version, message);
    if (!era.sessions) return this.sessionless(request, era, message);
    if (!this.registry) return this.withoutSessions(request, version, message, era);

    const fresh = isInitializeRequest(message);
    const session = (fresh ? undefined : this.liveSession(request)) ?? (await this.postSession(request, message, fresh));
    if (!('connection' in session)) return session;
    // The session is held (busy) until this POST is answered or its client goes.
    let held = true;
    const letGo = (): void => {
      if (held) session.leave();
      held = false;
    };
    try {
      return await this.dispatch(request, session.connection, session, message, fresh, era, letGo);
    } finally {
      letGo();
    }
  }

  /** A POST of an era with sessions to an endpoint that keeps none (`sessions: false`): a connection of its own, made as if initialized. */
  private withoutSessions(request: HttpRequest, version: string | undefined, message: MessageBody, era: HttpEra): Promise<HttpResult> | HttpResult {
    const refused = sessionlessBatchError(version, message);
    if (refused) return this.audited(request, message, faultResult(FAULTS.eraRefusal(refused)), refused);
    const transport = transportOf(request);
    const connection = isInitializeRequest(message)
      ? this.options.app.connect(transport, { sessionless: true })
      : this.options.app.connect(transport, { sessionless: true, restore: { client: sessionlessClient(version) } });
    return this.dispatch(request, connection, undefined, message, false, era);
  }

  /**
   * The common case found without a promise: the caller's own session, live on this instance
   * with no shared store, held. Undefined for anything else (no id, an unknown id, another
   * subject's session, a shared store): `postSession` then decides and answers.
   */
  private liveSession(request: HttpRequest): LiveSession | undefined {
    const id = headerValue(request.headers['mcp-session-id']);
    const session = id === undefined ? undefined : this.registry!.acquireLive(id);
    if (session === undefined || session.principal === principalOf(request.auth)) return session;
    session.leave();
    return undefined;
  }

  /** The session a POST runs in, held: a new one for an initialize, else the one its `Mcp-Session-Id` names; else the error to answer. */
  private async postSession(request: HttpRequest, message: MessageBody, fresh: boolean): Promise<LiveSession | HttpResult> {
    if (fresh) return this.registry!.create(request.headers, principalOf(request.auth)) ?? this.refuse(request, message, FAULTS.atCapacity());
    const id = headerValue(request.headers['mcp-session-id']);
    if (id === undefined) return this.refuse(request, message, FAULTS.missingSessionIdOnPost());
    const owned = await this.ownSession(id, request);
    if (owned === UNAVAILABLE) return this.refuse(request, message, FAULTS.sessionStoreUnavailable());
    if (owned === FULL) return this.refuse(request, message, FAULTS.atCapacity());
    return owned ?? this.refuse(request, message, FAULTS.unknownSession());
  }

  async get(request: HttpRequest): Promise<HttpResult> {
    const era = eraOf(versionOf(request.headers));
    if (!this.registry || !this.options.standaloneStream || !era.sessions) return this.methodNotAllowed();
    if (!acceptsSse(acceptOf(request))) return faultResult(FAULTS.notAcceptableStream());
    const session = await this.sessionOf(request, era);
    if (!('connection' in session)) return session;
    try {
      const lastEventId = headerValue(request.headers['last-event-id']);
      if (this.routed && (lastEventId === undefined || namesRoutedStream(lastEventId))) return await this.routedGet(request, session, lastEventId);
      if (lastEventId !== undefined) return await this.resume(request, session, lastEventId);
      if (session.standaloneStream?.isAttached) return faultResult(FAULTS.streamConflict());
      const stream = session.standaloneStream ?? session.openStream('g');
      const body = this.streamBody(request.onClose);
      stream.attach(body);
      return this.sessionStream(body, session);
    } finally {
      // From here on the attached stream (if any) holds the session while its reader stays.
      session.leave();
    }
  }

  async delete(request: HttpRequest): Promise<HttpResult> {
    const era = eraOf(versionOf(request.headers));
    if (!this.registry || !era.sessions) return this.methodNotAllowed();
    const session = await this.sessionOf(request, era);
    if (!('connection' in session)) return session;
    try {
      await this.registry.delete(session.id);
    } catch (error) {
      this.logger.warn({ err: error, sessionId: session.id }, 'session store unavailable: DELETE answered 503');
      return faultResult(FAULTS.sessionStoreUnavailable());
    } finally {
      session.leave();
    }
    return bodyResult('ok', {});
  }

  /**
   * A GET of a routed session (scale-out): the session's one GET stream, read from the shared
   * log here (taking it over from any other instance), from `Last-Event-ID` when given.
   */
  private async routedGet(request: HttpRequest, session: LiveSession, lastEventId: string | undefined): Promise<HttpResult> {
    const position = lastEventId === undefined ? undefined : parseRoutedEventId(lastEventId);
    if (lastEventId !== undefined && position === undefined) return faultResult(FAULTS.unknownLastEventId());
    const body = this.streamBody(request.onClose);
    let opened: boolean;
    try {
      opened = await this.routed!.open(session, body, position);
    } catch (error) {
      this.logger.warn({ err: error, sessionId: session.id }, 'session router unavailable: GET answered 503');
      body.close();
      return faultResult(FAULTS.sessionStoreUnavailable());
    }
    if (!opened) {
      body.close();
      return faultResult(FAULTS.unknownLastEventId());
    }
    return this.sessionStream(body, session);
  }

  methodNotAllowed(): HttpResult {
    return faultResult(FAULTS.methodNotAllowed(this.registry ? 'GET, POST, DELETE' : 'POST'));
  }

  /**
   * Hands the body to core's dispatcher: a frame as it was read (in the era that claimed it), a
   * batch to be classified there, on the session's connection. Without a connection (an era
   * without sessions) the one frame runs on a channel of its own, which its client leaving (or
   * the endpoint ending its listen) closes.
   */
  private receive(
    connection: Connection | undefined,
    body: MessageBody,
    era: HttpEra,
    options: ReceiveOptions,
    request: HttpRequest,
    listen: ListenSlot | undefined,
  ): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
    const dispatcher = this.options.app.dispatcher;
    if (Array.isArray(body)) return dispatcher.handle(body, connection!, { ...options, ...era.receive });
    const frame = body as Frame;
    const known = era.receive.era;
    const classified = known === undefined || frame.era === known ? frame : { ...frame, era: known };
    if (connection !== undefined) return dispatcher.handle(classified, connection, options);
    const scope = dispatcher.channel(options.transport!);
    const close = (): void => scope.close();
    request.onClose?.(close);
    listen?.onEnd(close);
    return dispatcher.handle(classified, scope, options);
  }

  /**
   * A POST of an era without sessions (an `Mcp-Session-Id` is ignored): admitted by its era (its
   * headers against its body), then served statelessly by core, JSON or SSE, with its era's statuses.
   */
  private async sessionless(request: HttpRequest, era: HttpEra, message: MessageBody): Promise<HttpResult> {
    const refused = era.admit(request.headers, message);
    if (refused) return this.refuse(request, message, FAULTS.eraRefusal(refused));
    if (!isListen(message)) return this.dispatch(request, undefined, undefined, message, false, era);
    // Each listen is a request that stays open: only the count of all of them bounds what they hold.
    const listen = this.listens.admit(request.logger);
    if (listen === undefined) return this.refuse(request, message, FAULTS.listensFull(this.listens.max));
    return this.dispatch(request, undefined, undefined, message, false, era, undefined, listen);
  }

  /** The answer to a POST's requests refused here, once its body was read, with their request lines. */
  private refuse(request: HttpRequest, message: MessageBody, fault: Fault): HttpResult {
    return this.audited(request, message, faultResult(fault, idOf(message)), fault.error);
  }

  /** `result`, after the request lines of the requests it refuses (with `error`; `outcome` when the error's own is not it). */
  private audited(request: HttpRequest, message: MessageBody, result: HttpResult, error: McpError, outcome?: string): HttpResult {
    logRefused(request.logger ?? this.logger, message, transportOf(request), error, outcome);
    return result;
  }

  /** The session a GET or DELETE names, held for the caller (who leaves it); else the error to answer. */
  private async sessionOf(request: HttpRequest, era: HttpEra): Promise<LiveSession | HttpResult> {
    const version = headerValue(request.headers['mcp-protocol-version']);
    if (version !== undefined && !era.servesVersion(version)) {
      return faultResult(FAULTS.unsupportedVersionHeader(version, era.versions));
    }
    const id = headerValue(request.headers['mcp-session-id']);
    if (id === undefined) return faultResult(FAULTS.missingSessionId());
    const session = await this.ownSession(id, request);
    if (session === UNAVAILABLE) return faultResult(FAULTS.sessionStoreUnavailable());
    if (session === FULL) return faultResult(FAULTS.atCapacity());
    return session ?? faultResult(FAULTS.unknownSession());
  }

  /**
   * The session `id`, held, when the request's caller is the one who opened it: another
   * subject's token on it answers exactly as an unknown session does (A14; a session id is
   * never a credential).
   */
  private async ownSession(id: string, request: HttpRequest): Promise<LiveSession | undefined | typeof UNAVAILABLE | typeof FULL> {
    let session: LiveSession | undefined | AtCapacity;
    try {
      session = await this.registry!.acquire(id);
    } catch (error) {
      // A shared store that cannot answer: never 404 (the client would drop a healthy session) nor 500.
      this.logger.warn({ err: error, sessionId: id }, 'session store unavailable: answered 503');
      return UNAVAILABLE;
    }
    if (session !== undefined && 'full' in session) return session.principal === principalOf(request.auth) ? FULL : undefined;
    if (session === undefined || session.principal === principalOf(request.auth)) return session;
    session.leave();
    return undefined;
  }

  /** GET with Last-Event-ID: what the stream missed, then whatever it still has to say. */
  private async resume(request: HttpRequest, session: LiveSession, lastEventId: string): Promise<HttpResult> {
    const streamId = streamOfEventId(lastEventId);
    const missed = streamId === undefined ? undefined : await this.options.eventStore.after(session.id, streamId, lastEventId);
    if (streamId === undefined || missed === undefined) return faultResult(FAULTS.unknownLastEventId());
    const live = session.streams.get(streamId);
    const body = this.streamBody(request.onClose);
    if (live) {
      live.attach(body, missed);
      session.release(live);
    } else if (this.routed && (await this.routed.follow(session, body, streamId, lastEventId, missed))) {
      // Its request runs on another instance: followed here until its answer.
    } else {
      // The stream has finished: replay what was missed and end.
      const finished = new SseStream(streamId, this.plainStreamOptions());
      finished.complete();
      finished.attach(body, missed);
    }
    return this.sessionStream(body, session);
  }

  /**
   * Scale-out: what another instance that follows this POST stream answers if this instance is
   * gone before the answer (made here, where errors are mapped), and the mark a follower acts on
   * when the stream ends without one: the client cancelled it (`cancelled()`: nothing is due), or
   * this copy of the session closed (the request is lost: the follower gives the fallback). Both
   * are a shared store's; another store has neither.
   */
  private keepFallback(session: LiveSession, stream: SseStream, message: MessageBody, logger: Logger, cancelled: () => boolean): void {
    const store = this.options.eventStore;
    if (store.keepFallback === undefined) return;
    const fallback = encodeMessage(errorResponses(message, REQUEST_FAULTS.instanceGone()), this.options.limits, logger);
    const failed = (error: unknown): void => logger.warn({ err: error, sessionId: session.id }, 'scale-out: could not store a stream fallback');
    if (fallback !== undefined) void Promise.resolve(store.keepFallback(session.id, stream.id, fallback)).catch(failed);
    if (store.endStream === undefined) return;
    const endStream = store.endStream.bind(store);
    stream.onComplete = (answered) => {
      if (!answered) void Promise.resolve(endStream(session.id, stream.id, cancelled() ? 'cancelled' : 'lost')).catch(failed);
    };
  }

  /**
   * Scale-out: what a POST's stream does when the shared store fails (the request fails at the
   * client, an error for each of its ids ends the stream, rather than go on with events a
   * resumption would miss), and its fallback (`keepFallback`).
   */
  private storeFailure(session: LiveSession, message: MessageBody, logger: Logger): (stream: SseStream, cancelled: () => boolean) => void {
    return (stream, cancelled) => {
      stream.onStoreFailed = () => stream.complete(errorResponses(message, REQUEST_FAULTS.streamNotKept()));
      this.keepFallback(session, stream, message, logger, cancelled);
    };
  }

  /** A response body that closes when the request's client goes (`onClose`: the request's). */
  private streamBody(onClose: HttpRequest['onClose']): EventStream {
    const body = new EventStream();
    onClose?.(() => body.close());
    return body;
  }

  private sessionStream(stream: EventStream, session: LiveSession | undefined): HttpStreamResult {
    return streamResult(session ? { 'mcp-session-id': session.id, ...SSE_HEADERS } : { ...SSE_HEADERS }, stream);
  }

  /** Options of a stream nobody can resume (stateless, or a replay that ends at once). */
  private plainStreamOptions(): SseStreamOptions {
    return {
      priming: false,
      retryMs: this.options.retryMs,
      keepAliveMs: 0,
      limits: this.options.limits,
      maxBufferedBytes: this.options.maxEventBytesPerSession,
    };
  }

  /**
   * Runs the message through core and answers: 202, JSON, or an SSE stream (responseMode). The
   * returned promise settles as soon as the answer's head is known: with the JSON answer, or
   * with the stream the moment one opens (the work then goes on, writing to it). Every POST that
   * carried a request ends with an answer or an ended stream, whatever throws where.
   */
  private dispatch(
    request: HttpRequest,
    connection: Connection | undefined,
    session: LiveSession | undefined,
    message: MessageBody,
    fresh: boolean,
    era: HttpEra,
    letGo?: () => void,
    listen?: ListenSlot,
  ): Promise<HttpResult> {
    const head = new AnswerHead(request.logger ?? this.logger, listen);
    this.run(request, connection, session, message, fresh, era, letGo, head.respond, listen).then(head.ended, head.failed);
    return head.promise;
  }

  /**
   * Starts the work of a POST. What outlives this call (the closures a stream's requests hold,
   * for as long as the stream lasts: hours, for a listen) holds nothing of the request's body or
   * message: only its `onClose`, and what `settle` needs.
   */
  private run(
    request: HttpRequest,
    connection: Connection | undefined,
    session: LiveSession | undefined,
    message: MessageBody,
    fresh: boolean,
    era: HttpEra,
    letGo: (() => void) | undefined,
    respond: (result: HttpResult) => void,
    listen: ListenSlot | undefined,
  ): Promise<HttpResult> {
    const transport = transportOf(request);
    // The binding's logger may carry its own request id (Fastify's reqId); a session's lines also
    // say which session (as a field: a child of the per-request logger would cost ~10 µs a request).
    const logger = request.logger ?? this.logger;
    const logId = request.logId;
    const logBindings = logId === undefined ? session?.logBindings : session ? { reqId: logId, ...session.logBindings } : { reqId: logId };
    if (!containsRequest(message)) return this.accepted(this.receive(connection, message, era, { logger, transport, logBindings }, request, listen), logger);

    const onClose = request.onClose;
    const post: PostState = { stream: undefined, streamed: undefined, cancelled: false };
    // Scale-out: a stream whose events the shared store cannot keep fails its requests (made
    // here, where the message is at hand, so the stream's closures need not hold it).
    const failOnStore = session && this.routed ? this.storeFailure(session, message, logger) : undefined;
    // A session's stream outlives its reader, its requests only for a while (detachedRequestTimeoutMs).
    const requests = session ? requestCount(message) : 0;
    const openStream = (): SseStream => {
      const stream = session ? session.openStream('s') : new SseStream('s', { ...this.plainStreamOptions(), logger });
      post.stream = stream;
      failOnStore?.(stream, () => post.cancelled);
      if (session)
        stream.onReaderChange = (attached) => {
          if (attached || stream.isComplete) this.detached.forget(stream);
          else this.detached.detach(stream, requests, cancelUnreachable);
        };
      const body = this.streamBody(onClose);
      stream.attach(body);
      respond((post.streamed = this.sessionStream(body, session)));
      return stream;
    };
    // What cancels the requests of a session's POST whose client left before a stream opened:
    // their answers were to be JSON on this connection, and no stream can resume them.
    const unreachable: Array<() => void> = [];
    let gone = false;
    const cancelUnreachable = (): void => {
      gone = true;
      for (const cancel of unreachable.splice(0)) cancel();
    };
    onClose?.(() => {
      // Stateless: nobody can fetch the answer later, so a client that leaves cancels the work
      // (the stateless dispatcher's requests are cancelled by the dispatcher).
      if (!session) connection?.close();
      else {
        // A session's work on a stream runs on (its answer can be resumed), but no longer holds
        // the session: with its client gone, idle expiry or eviction may end it, and whatever it
        // still runs. Without a stream, nobody can ever receive it: it is cancelled.
        letGo?.();
        if (post.stream === undefined) cancelUnreachable();
      }
    });
    const whenUnreachable = session
      ? (listener: () => void): void => {
          if (gone) listener();
          else unreachable.push(listener);
        }
      : undefined;
    // Some eras stream only once they have something to stream: their errors need the HTTP
    // statuses of their table, which a stream opened up front would hide.
    if (this.options.responseMode === 'sse' && era.streamsUpFront) openStream();
    const send = this.options.responseMode === 'json' ? undefined : (related: Parameters<SseStream['send']>[0]) => (post.stream ?? openStream()).send(related);

    // SSE polling: end this connection but keep the stream; the client resumes with Last-Event-ID.
    const detach = session
      ? () => {
          const current = post.stream ?? openStream();
          current.end();
        }
      : undefined;
    // A new session is kept (stored) before its initialize is answered; one the store refuses is
    // refused to the client, with this status, and its request line says so.
    const openSession =
      fresh && session
        ? async (accepted: JsonRpcResponse): Promise<JsonRpcResponse> => {
            // A client that left before its initialize was answered may have lost its session already.
            if (!this.registry!.has(session)) return accepted;
            try {
              await this.registry!.activate(session);
              return accepted;
            } catch (error) {
              post.notKept = sessionRefusal(error, logger);
              return errorResponse(accepted.id, post.notKept.error);
            }
          }
        : undefined;
    let answering: Promise<JsonRpcResponse | JsonRpcResponse[] | undefined>;
    try {
      answering = this.receive(
        connection,
        message,
        era,
        { logger, send, transport, detach, logBindings, unreachable: whenUnreachable, openSession, maxAnswerBytes: this.options.limits.maxMessageBytes },
        request,
        listen,
      );
    } catch (error) {
      answering = Promise.reject(error);
    }
    // What the answer needs of the message: an initialize's id, a json POST's ids (nothing streams there).
    const replyTo = fresh || this.options.responseMode === 'json' ? message : undefined;
    return this.settle(answering, post, session, fresh, era, logger, onClose, replyTo);
  }

  /** The answer to a POST of notifications and responses only: 202, or the errors about them. */
  private async accepted(answering: Promise<JsonRpcResponse | JsonRpcResponse[] | undefined>, logger: Logger): Promise<HttpResult> {
    const answer = await answering;
    if (answer === undefined) return bodyResult('accepted', {});
    return answerResult('refusedMessages', answer, this.options.limits, logger);
  }

  /** Answers a POST once its work ended: the last event of its stream, or its JSON answer. */
  private async settle(
    answering: Promise<JsonRpcResponse | JsonRpcResponse[] | undefined>,
    post: PostState,
    session: LiveSession | undefined,
    fresh: boolean,
    era: HttpEra,
    logger: Logger,
    onClose: HttpRequest['onClose'],
    replyTo: MessageBody | undefined,
  ): Promise<HttpResult> {
    const limits = this.options.limits;
    let answer: JsonRpcResponse | JsonRpcResponse[] | undefined;
    try {
      answer = await answering;
    } catch (error) {
      return this.dispatchFailed(error, post, session, fresh, logger);
    }
    const stream = post.stream;
    // A refused initialize ends its session, but only once its answer is written: discarding the
    // session first closed the stream it was to go out on (sse mode), so it never did.
    const refusedSession = fresh && session && !(succeeded(answer) && this.registry!.has(session)) ? session : undefined;
    if (stream) {
      // Cancelled requests get nothing on their stream (utilities/cancellation): it just ends.
      post.cancelled = answer === undefined;
      stream.complete(answer);
      session?.release(stream);
      if (refusedSession) this.registry!.discard(refusedSession);
      return post.streamed!;
    }
    if (refusedSession) this.registry!.discard(refusedSession);
    if (post.notKept !== undefined) return faultResult(post.notKept, idOf(replyTo!));
    if (answer === undefined) return this.allCancelled(replyTo, session, logger, onClose);
    // A denial of one request on a resource server is an HTTP 401 / 403 with its challenge.
    const result = this.resourceServer?.denial(answer, limits) ?? eraAnswerResult(era, answer, limits, logger);
    if (fresh && session && succeeded(answer)) result.headers = { 'mcp-session-id': session.id, ...result.headers };
    return result;
  }

  /** Core answers every request itself: a rejection is a bug, but the client must not hang on it. */
  private dispatchFailed(error: unknown, post: PostState, session: LiveSession | undefined, fresh: boolean, logger: Logger): HttpResult {
    logger.error({ err: error }, 'unexpected dispatcher failure');
    if (fresh && session) this.registry!.discard(session);
    if (!post.stream) throw error;
    post.stream.complete();
    session?.release(post.stream);
    return post.streamed!;
  }

  /**
   * Every request was cancelled. The client expects no response for them (utilities/
   * cancellation), yet the POST must end: with an empty stream, or in json mode an error.
   */
  private allCancelled(replyTo: MessageBody | undefined, session: LiveSession | undefined, logger: Logger, onClose: HttpRequest['onClose']): HttpResult {
    if (this.options.responseMode === 'json') return answerResult('ok', cancelledAnswer(replyTo!), this.options.limits, logger);
    const empty = new SseStream('s', this.plainStreamOptions());
    empty.complete();
    const body = this.streamBody(onClose);
    empty.attach(body);
    return this.sessionStream(body, session);
  }
}

/** What a POST's work and its answer share: the stream once one opened, nothing of the request. */
interface PostState {
  stream: SseStream | undefined;
  /** The answer handed to the binding when the stream opened. */
  streamed: HttpResult | undefined;
  /** True once every request of the body was cancelled by the client (no answer is due). */
  cancelled: boolean;
  /** Why the session of an initialize could not be kept, once the store refused it. */
  notKept?: Fault;
}

/** What `ownSession` says when the session store cannot answer. */
const UNAVAILABLE = Symbol('unavailable');

/** What `ownSession` says when a shared session exists but this instance has no free slot for it. */
const FULL = Symbol('full');

/** A POST carrying one `subscriptions/listen` request: it stays open until its client or the server ends it. */
function isListen(message: MessageBody): boolean {
  return !Array.isArray(message) && (message as Frame).kind === 'request' && (message as Frame).method === SUBSCRIPTIONS_LISTEN;
}

/** The answer to an `initialize` whose session the store refused (`SessionStore.set` threw): a record too large, else the store is unavailable. */
function sessionRefusal(error: unknown, logger: Logger): Fault {
  if (error instanceof SessionRecordTooLargeError) {
    logger.info({ bytes: error.bytes, maxBytes: error.maxBytes }, 'initialize refused: the session record would be too large to keep');
    return FAULTS.sessionRecordTooLarge(error.maxBytes);
  }
  logger.warn({ err: error }, 'session store unavailable: initialize answered 503');
  return FAULTS.sessionStoreUnavailable();
}

/** A POST whose body the endpoint will not read: the answer to its Accept, Content-Type or Content-Encoding; else undefined. */
function postHeaderFault(request: HttpRequest): HttpResult | undefined {
  if (!acceptsJsonAndSse(acceptOf(request))) return faultResult(FAULTS.notAcceptable());
  if (!isJsonContentType(request.headers['content-type'])) return faultResult(FAULTS.unsupportedMediaType());
  // Bindings refuse it before reading; one that does not (a few lines over node:http) still must not parse gzip as JSON.
  if (isCompressed(request.headers['content-encoding'])) return faultResult(FAULTS.compressedBody());
  return undefined;
}

/** The transport facts of one HTTP request: its headers, and its client's address, port and HTTP version when the binding knows them. */
function transportOf(request: HttpRequest): TransportInfo {
  const transport: TransportInfo = { kind: 'http', headers: request.headers };
  if (request.remoteAddress !== undefined) transport.remoteAddress = request.remoteAddress;
  if (request.remotePort !== undefined) transport.remotePort = request.remotePort;
  if (request.httpVersion !== undefined) transport.httpVersion = request.httpVersion;
  if (request.auth) transport.auth = request.auth;
  return transport;
}
