import { unrefTimer } from '@mcpkit/core/transport';
import { randomBytes } from 'node:crypto';
import type { JsonRpcMessage, Logger, McpApp } from '@mcpkit/core';
import {
  MessageChannel,
  httpSseRefusal,
  logRefused,
  parseMessage,
  protocolVersionHeader,
  type Connection,
  type EncodeLimits,
  type MessageBody,
  type ReceiveOptions,
} from '@mcpkit/core/transport';
import { acceptsSse, isJsonContentType } from './accept';
import { bodyOf, idOf } from './classify';
import { EventStream } from './event-stream';
import { headerValue, type HttpRequest, type HttpResult } from './http-result';
import { SSE_HEADERS } from './sse-stream';
import { answerResult, bodyResult, FAULTS, faultResult, REQUEST_FAULTS, streamResult } from './transport-faults';

/** One POST's message, with what its request tells the dispatcher (its logger, headers). */
interface Posted {
  body: MessageBody;
  options: ReceiveOptions;
}

interface SseSession {
  connection: Connection;
  stream: EventStream;
  keepAlive: NodeJS.Timeout | undefined;
  // Events due in one tick leave in one write; an answer right after its request's last progress
  // waits for a write of its own, a moment later.
  channel: MessageChannel<Posted>;
}

/** How such a stream writes: the bounds of one message and of what waits for a slow reader. */
export interface SseWriteOptions {
  limits: EncodeLimits;
  maxBufferedBytes: number;
}

/**
 * The HTTP+SSE transport of the first revision, for clients that predate Streamable HTTP: GET
 * opens a stream whose first event names the POST endpoint; every answer travels on that stream.
 */
export class HttpSseEndpoints {
  private readonly sessions = new Map<string, SseSession>();

  constructor(
    private readonly app: McpApp,
    /** Absolute path of the messages endpoint, as the client must call it (a mount prefix included). */
    private readonly messagesUrl: string,
    private readonly keepAliveMs: number,
    private readonly writeOptions: SseWriteOptions,
    private readonly logger: Logger,
    /** With an endpoint rate limit: the `429` for a batch whose further messages the caller has no tokens for. */
    private readonly countBatch?: (request: HttpRequest, extra: number) => Promise<HttpResult | undefined>,
  ) {}

  /**
   * Writes the events due this tick in one write; a client that does not read loses its stream
   * rather than grow our buffer (there is no input to pause: each message is its own POST).
   */
  private write(stream: EventStream, texts: readonly string[]): boolean {
    if (stream.writableEnded) return true;
    if (stream.writableLength > this.writeOptions.maxBufferedBytes) {
      stream.destroy();
      return true;
    }
    let events = '';
    for (const text of texts) events += `event: message\ndata: ${text}\n\n`;
    stream.write(events);
    return true;
  }

  /** Open streams. */
  get size(): number {
    return this.sessions.size;
  }

  open(request: HttpRequest): HttpResult {
    const refused = unservedRevision(request, undefined);
    if (refused) return refused;
    const accept = request.headers.accept;
    if (!acceptsSse(Array.isArray(accept) ? accept.join(', ') : accept)) return faultResult(FAULTS.notAcceptableStream());
    const id = randomBytes(24).toString('base64url');
    const connection = this.app.connect({ kind: 'http', headers: request.headers }, { sessionId: id });
    const stream = new EventStream();
    stream.write(`event: endpoint\ndata: ${this.messagesUrl}?sessionId=${id}\n\n`);
    const keepAlive = this.keepAliveMs > 0 ? unrefTimer(setInterval(() => stream.write(': keepalive\n\n'), this.keepAliveMs)) : undefined;
    const channel = new MessageChannel<Posted>({
      dispatch: ({ body, options }, send) =>
        this.app.dispatcher.handle(body, connection, { ...options, send, maxAnswerBytes: this.writeOptions.limits.maxMessageBytes }),
      write: (texts) => this.write(stream, texts),
      drained: () => undefined,
      pauseInput: () => undefined,
      resumeInput: () => undefined,
      limits: this.writeOptions.limits,
      logger: this.logger,
    });
    const session: SseSession = { connection, stream, keepAlive, channel };
    this.sessions.set(id, session);
    connection.setOutbound((message: JsonRpcMessage) => channel.send(message));
    request.onClose?.(() => stream.close());
    stream.onClose(() => this.end(id));
    return streamResult({ ...SSE_HEADERS }, stream);
  }

  async message(request: HttpRequest): Promise<HttpResult> {
    const id = headerValue(request.query?.sessionId);
    if (id === undefined) return faultResult(FAULTS.missingSseSessionId());
    const session = this.sessions.get(id);
    if (!session) return faultResult(FAULTS.unknownSseSession());
    if (!isJsonContentType(request.headers['content-type'])) return faultResult(FAULTS.unsupportedMediaType());
    const frame = parseMessage(request.body ?? '');
    if (!frame.ok) return answerResult('unparsable', frame.response, this.writeOptions.limits);
    const body = bodyOf(frame.message);
    const refused = unservedRevision(request, body);
    if (refused) return refused;
    const logger = request.logger ?? this.logger;
    // Each message of a batch counts against the endpoint's rate limit, as on the MCP endpoint.
    if (this.countBatch !== undefined && Array.isArray(body) && body.length > 1) {
      const over = await this.countBatch(request, body.length - 1);
      if (over !== undefined) {
        logRefused(logger, body, { kind: 'http', headers: request.headers }, REQUEST_FAULTS.rateLimited(), 'rate_limited');
        return over;
      }
    }
    session.channel.receive({ body, options: { logger, transport: { kind: 'http', headers: request.headers } } });
    return bodyResult('accepted', {});
  }

  /** Ends every stream (shutdown). */
  closeAll(): void {
    for (const id of [...this.sessions.keys()]) this.end(id);
  }

  private end(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    if (session.keepAlive) clearInterval(session.keepAlive);
    session.channel.close();
    session.connection.close();
    session.stream.end();
  }
}

/** A request this transport's revisions do not include (2026-07-28): core's `-32022`. */
function unservedRevision(request: HttpRequest, body: MessageBody | undefined): HttpResult | undefined {
  const refused = httpSseRefusal(protocolVersionHeader(request.headers), body);
  return refused && faultResult(FAULTS.eraRefusal(refused), body === undefined ? null : idOf(body));
}
