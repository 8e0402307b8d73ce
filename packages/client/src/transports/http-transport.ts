import type { JsonRpcMessage } from '@mcpkit/core';
import { MAX_TIMER_MS, isObject, parseMessage, type EncodeLimits } from '@mcpkit/core/transport';
import { ClientErrorCode, McpClientError } from '../client-error';
import { encodeRequest } from './encode-request';
import type { ClientTransport, SendOptions, TransportSink } from './client-transport';
import { readBounded } from './read-bounded';
import { SseReader } from './sse-reader';
import { tooLarge } from './stdio-transport';

/**
 * Gives the bearer token of a request (or none). Called for every request; called again with
 * `refused: true` once when the server answered 401 (refresh the token then), and the request
 * is sent again once.
 */
export type TokenProvider = (context: { refused: boolean }) => string | undefined | Promise<string | undefined>;

/** A Streamable HTTP endpoint. */
export interface HttpTarget {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  url: string | URL;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** A bearer token, or a function that gives one per request (`Authorization: Bearer …`). */
  token?: string | TokenProvider;
  /** The `fetch` to use (default: the global one). */
  fetch?: typeof fetch;
}

/** Bounds of the HTTP transport. */
export interface HttpLimits extends EncodeLimits {
  /** Attempts to resume a broken stream (`Last-Event-ID`) or reopen the GET stream before giving up. */
  maxReconnects: number;
  /** Wait before a reconnection when the server named none (`retry:`), in ms; doubled on each failed attempt. */
  reconnectDelayMs: number;
}

/** Labels a message with headers of the era (2026-07-28: `Mcp-Method`, `Mcp-Name`). */
export type MessageHeaders = (message: JsonRpcMessage) => Record<string, string>;

const ACCEPT = 'application/json, text/event-stream';

/** The shortest wait before a reconnection a server's `retry:` may ask for: `retry: 0` would reopen a stream in a busy loop. */
const MIN_RETRY_MS = 100;

/** What an `Mcp-Session-Id` may be (visible ASCII), with a bound of this client's. */
const SESSION_ID = /^[\x21-\x7e]{1,1024}$/;

/**
 * The client side of Streamable HTTP: one POST per message (JSON or SSE answers), the session id
 * the server gives, the GET stream of server-initiated messages once a session is open,
 * resumption with `Last-Event-ID` when a stream breaks before its answer, `DELETE` on close,
 * bearer tokens. Every body is read up to `maxMessageBytes`: past it, the request fails. No
 * redirect is followed: the headers given and the session would go to an address not chosen.
 */
export class HttpClientTransport implements ClientTransport {
  readonly kind = 'http';
  private sink: TransportSink | undefined;
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;
  private readonly life = new AbortController();
  private readonly doFetch: typeof fetch;
  private messageHeaders: MessageHeaders = () => ({});

  constructor(
    private readonly target: HttpTarget,
    private readonly limits: HttpLimits,
  ) {
    this.doFetch = target.fetch ?? fetch;
  }

  /** The `Mcp-Session-Id` the server gave, if any. */
  get session(): string | undefined {
    return this.sessionId;
  }

  start(sink: TransportSink): Promise<void> {
    this.sink = sink;
    return Promise.resolve();
  }

  setProtocolVersion(version: string | undefined): void {
    this.protocolVersion = version;
  }

  setMessageHeaders(headers: MessageHeaders | undefined): void {
    this.messageHeaders = headers ?? (() => ({}));
  }

  opened(): void {
    if (this.sessionId !== undefined) void this.listen(undefined, 0);
  }

  async send(message: JsonRpcMessage, options: SendOptions = {}): Promise<void> {
    if (this.life.signal.aborted) throw new McpClientError(ClientErrorCode.ConnectionClosed, 'the connection is closed');
    const body = encodeRequest(message, this.limits);
    if (body === undefined) throw tooLarge(message, this.limits.maxMessageBytes);
    const requestId = 'method' in message && 'id' in message && typeof message.id === 'number' ? message.id : undefined;
    const signal = options.signal ? AbortSignal.any([options.signal, this.life.signal]) : this.life.signal;
    const response = await this.post(body, this.messageHeaders(message), signal);
    await this.keepSession(response, message);
    if (response.status === 202) {
      await response.body?.cancel();
      if (requestId === undefined) return;
      // Waiting would last until the timeout: no answer comes for a request accepted this way.
      throw McpClientError.invalid(methodOf(message), 'HTTP 202 carries no answer, and a request needs one (JSON or an event stream)');
    }
    // A notification or a response has no answer (the spec says 202): a body, an endless stream above all, is not held.
    if (response.ok && requestId === undefined) return void (await response.body?.cancel());
    const type = response.headers.get('content-type') ?? '';
    if (response.ok && type.startsWith('text/event-stream')) {
      void this.stream(response, requestId, signal);
      return;
    }
    await this.answer(response, message, requestId, signal);
  }

  /** Keeps the session id the server gave first; it goes back in a header of every request, so only what the spec allows is kept. */
  private async keepSession(response: Response, message: JsonRpcMessage): Promise<void> {
    const sessionId = response.headers.get('mcp-session-id');
    if (sessionId === null || this.sessionId !== undefined) return;
    if (!SESSION_ID.test(sessionId)) {
      await response.body?.cancel();
      throw McpClientError.invalid(methodOf(message), 'its Mcp-Session-Id is not 1 to 1024 visible ASCII characters (0x21-0x7E)');
    }
    this.sessionId = sessionId;
  }

  /** Reads a JSON (or empty) answer to one POST: the message it carries goes to the sink; a refusal without one is thrown. */
  private async answer(response: Response, message: JsonRpcMessage, requestId: number | undefined, signal: AbortSignal): Promise<void> {
    const body = await readBounded(response, this.limits.maxMessageBytes, signal);
    const parsed = body.ok && body.text !== '' ? parseMessage(body.text) : undefined;
    const read = parsed?.ok ? parsed.message : undefined;
    // Any status with a JSON-RPC answer for this request: the answer says why.
    if (requestId !== undefined && isObject(read) && read.id === requestId) return this.sink!.message(read);
    if (!response.ok) throw this.statusError(response, read, methodOf(message));
    if (requestId === undefined) return;
    if (read === undefined) throw McpClientError.invalid(methodOf(message), body.ok ? this.notJson(response) : body.why);
    // A message, but not the answer: the request would otherwise wait for an answer that cannot come.
    this.sink!.message(read);
    throw McpClientError.invalid(methodOf(message), 'the HTTP answer is not the answer to it');
  }

  /** Why an answer is unreadable, with the likely fix: a web page or a proxy's error page answers at that URL, not an MCP server. */
  private notJson(response: Response): string {
    const type = response.headers.get('content-type')?.split(';')[0] || 'no content type';
    return `the HTTP answer (${type}) is not JSON: is ${String(this.target.url)} the MCP endpoint?`;
  }

  async close(): Promise<void> {
    if (this.life.signal.aborted) return;
    this.life.abort();
    this.sink?.closed(new McpClientError(ClientErrorCode.ConnectionClosed, 'the client closed the connection'));
    if (this.sessionId === undefined) return;
    try {
      const response = await this.doFetch(this.target.url, {
        method: 'DELETE',
        headers: await this.headers({}, false),
        signal: AbortSignal.timeout(5_000),
        redirect: 'manual',
      });
      await response.body?.cancel();
    } catch {
      // The session ends on the server's side anyway; a DELETE that fails changes nothing here.
    }
  }

  private async post(body: string, extra: Record<string, string>, signal: AbortSignal): Promise<Response> {
    const send = async (refused: boolean) =>
      this.doFetch(this.target.url, {
        method: 'POST',
        headers: { ...(await this.headers(extra, refused)), 'content-type': 'application/json', accept: ACCEPT },
        body,
        signal,
        redirect: 'manual',
      });
    const first = await send(false);
    if (first.status !== 401 || typeof this.target.token !== 'function') return first;
    await first.body?.cancel();
    return send(true);
  }

  private async headers(extra: Record<string, string>, refused: boolean): Promise<Record<string, string>> {
    const headers: Record<string, string> = { ...this.target.headers, ...extra };
    if (this.protocolVersion !== undefined) headers['mcp-protocol-version'] = this.protocolVersion;
    if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
    const token = typeof this.target.token === 'function' ? await this.target.token({ refused }) : this.target.token;
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    return headers;
  }

  private statusError(response: Response, read: unknown, method: string): McpClientError {
    const status = response.status;
    const wire = isObject(read) && isObject(read.error) ? read.error : undefined;
    if (status === 404 && this.sessionId !== undefined) {
      this.life.abort();
      const error = new McpClientError(ClientErrorCode.HttpStatus, `the server no longer knows session ${this.sessionId} (404): connect again`, {
        status,
        sessionId: this.sessionId,
      });
      this.sink?.closed(error);
      return error;
    }
    const location = response.headers.get('location');
    if (status >= 300 && status < 400 && location !== null) {
      return new McpClientError(
        ClientErrorCode.HttpStatus,
        `${method} was redirected to ${location} (HTTP ${status}), which the client does not follow: connect to that URL`,
        {
          status,
          location,
        },
      );
    }
    const why = wire && typeof wire.message === 'string' ? `: ${wire.message}` : '';
    const challenge = response.headers.get('www-authenticate');
    return new McpClientError(ClientErrorCode.HttpStatus, `${method} was refused with HTTP ${status}${why}`, {
      status,
      ...(wire ? { error: wire } : {}),
      ...(challenge === null ? {} : { wwwAuthenticate: challenge }),
    });
  }

  /**
   * Reads a POST's event stream; when it breaks before the answer of `requestId` and the server
   * gave event ids, resumes it with a GET and `Last-Event-ID` (SEP-1699), up to `maxReconnects` times.
   */
  private async stream(response: Response, requestId: number | undefined, signal: AbortSignal): Promise<void> {
    const state = { lastEventId: undefined as string | undefined, retryMs: this.limits.reconnectDelayMs, answered: false };
    let current: Response | undefined = response;
    for (let attempt = 0; current !== undefined; attempt++) {
      const oversized = await this.readEvents(current, state, requestId, signal);
      if (oversized && requestId !== undefined) {
        this.sink!.failed(requestId, McpClientError.invalid('the request', `an event over ${this.limits.maxMessageBytes} bytes (maxMessageBytes)`));
        return;
      }
      if (state.answered || signal.aborted || requestId === undefined) return;
      if (state.lastEventId === undefined || attempt >= this.limits.maxReconnects) {
        this.sink!.failed(requestId, new McpClientError(ClientErrorCode.ConnectionClosed, 'the response stream ended before the answer'));
        return;
      }
      await delay(state.retryMs * 2 ** attempt, signal);
      const reopened = await this.reopen(state.lastEventId, signal).catch(() => undefined);
      current = reopened === 'refused' ? undefined : reopened;
    }
    if (requestId !== undefined && !state.answered && !signal.aborted) {
      this.sink!.failed(requestId, new McpClientError(ClientErrorCode.ConnectionClosed, 'the response stream could not be resumed'));
    }
  }

  /** Delivers the events of one response; true when one was over the bound. */
  private async readEvents(
    response: Response,
    state: { lastEventId: string | undefined; retryMs: number; answered: boolean },
    requestId: number | undefined,
    signal: AbortSignal,
  ): Promise<boolean> {
    const reader = new SseReader(this.limits.maxMessageBytes);
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        for (const item of reader.push(chunk)) {
          if (item.kind === 'retry') state.retryMs = Math.max(item.ms, MIN_RETRY_MS);
          else if (item.kind === 'oversized') return true;
          else {
            if (item.event.id !== undefined) state.lastEventId = item.event.id;
            if (item.event.data === '') continue;
            const parsed = parseMessage(item.event.data);
            if (!parsed.ok) continue;
            if (requestId !== undefined && isObject(parsed.message) && parsed.message.id === requestId && !('method' in parsed.message)) state.answered = true;
            this.sink!.message(parsed.message, requestId);
          }
        }
        if (signal.aborted) break;
      }
    } catch {
      // A broken connection: the caller resumes or fails the request.
    }
    return false;
  }

  /** A GET stream (resumed after `lastEventId`); `refused` when the server offers none (405, or another 4xx); undefined when it may later. */
  private async reopen(lastEventId: string | undefined, signal: AbortSignal): Promise<Response | 'refused' | undefined> {
    const headers = { ...(await this.headers({}, false)), accept: 'text/event-stream', ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }) };
    const response = await this.doFetch(this.target.url, { method: 'GET', headers, signal, redirect: 'manual' });
    if (response.ok && (response.headers.get('content-type') ?? '').startsWith('text/event-stream')) return response;
    await response.body?.cancel();
    return response.status >= 400 && response.status < 500 && response.status !== 429 ? 'refused' : undefined;
  }

  /** The GET stream of server-initiated messages: reopened (resumed when it can be) while the connection lives. */
  private async listen(lastEventId: string | undefined, failures: number): Promise<void> {
    const signal = this.life.signal;
    const state = { lastEventId, retryMs: this.limits.reconnectDelayMs, answered: false };
    for (let attempt = failures; !signal.aborted && attempt <= this.limits.maxReconnects;) {
      const response = await this.reopen(state.lastEventId, signal).catch(() => undefined);
      if (response === 'refused') return;
      if (response === undefined) {
        attempt++;
        if (attempt > this.limits.maxReconnects) return;
        await delay(state.retryMs * 2 ** attempt, signal);
        continue;
      }
      attempt = 0;
      await this.readEvents(response, state, undefined, signal);
      await delay(state.retryMs, signal);
    }
  }
}

function methodOf(message: JsonRpcMessage): string {
  return 'method' in message ? message.method : 'an answer';
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    // Past the timer range Node would wait 1 ms instead.
    const timer = setTimeout(done, Math.min(ms, MAX_TIMER_MS));
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
