import type { AuthInfo, McpApp } from '@mcpkit/core';
import { isJsonContentType } from './accept';
import type { EventSink } from './event-stream';
import type { DrainOptions } from './answer-unread-body';
import { createHttpHandler, type McpHttpHandler } from './http-handler';
import { headerValue, type HttpBodyResult, type HttpResult, type HttpStreamResult } from './http-result';
import { joinedCredentials } from './joined-credentials';
import type { McpHttpOptions } from './options';
import { decodePath, queryOf } from './request-target';

/** A web-standard handler: `(request) => response`, plus `close()` for shutdown. */
export interface FetchHandler {
  /**
   * `info.remoteAddress` is the client's address where the server knows it (Bun's
   * `server.requestIP`, Deno's `info.remoteAddr`, `node:http`'s socket): rate limits key
   * anonymous callers by it.
   */
  (request: Request, info?: { remoteAddress?: string }): Promise<Response>;
  /** Ends streams and sessions (shutdown). */
  close(): Promise<void>;
  /** @internal The core it binds. */
  readonly core: McpHttpHandler;
}

const encoder = new TextEncoder();

/** Reads and discards what is left of a refused body, up to `maxDrainBytes` or `drainTimeoutMs`. */
async function drain(body: ReadableStream<Uint8Array>, reader: ReadableStreamDefaultReader<Uint8Array> | undefined, options: DrainOptions): Promise<void> {
  let read: ReadableStreamDefaultReader<Uint8Array>;
  try {
    read = reader ?? body.getReader();
  } catch {
    return;
  }
  let left = options.maxDrainBytes;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A read still pending at the deadline is left, not cancelled: cancelling the body would tear the connection down under the answer.
  const expired = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), options.drainTimeoutMs)));
  try {
    for (;;) {
      const chunk = await Promise.race([read.read(), expired]);
      if (chunk === undefined || chunk.done) return;
      left -= chunk.value.byteLength;
      if (left < 0) return;
    }
  } catch {
    // The upload broke off: nothing more to read.
  } finally {
    clearTimeout(timer);
  }
}

/** A body refused before it was read in full, and the reader already reading it, if any. */
interface Refused {
  refused: HttpBodyResult;
  reader?: ReadableStreamDefaultReader<Uint8Array>;
}

/**
 * The answer to a body refused before it was read in full (`413`, `415`): its status and bytes go
 * at once, with `Content-Length` and `Connection: close`, but the response ends only once what
 * the client still sends has been read and discarded (up to `maxDrainBytes` or `drainTimeoutMs`).
 * A server that closes a connection holding unread bytes resets it, and a client that sends its
 * whole body before it reads (no `Expect: 100-continue`) got a broken pipe instead of the status.
 */
function refusedResponse(request: Request, { refused, reader }: Refused, options: DrainOptions): Response {
  const bytes = encoder.encode(refused.body ?? '');
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      void drain(request.body!, reader, options).then(() => {
        try {
          controller.close();
        } catch {
          // Cancelled already: the client went away.
        }
      });
    },
  });
  const headers = { ...refused.headers, connection: 'close', 'content-length': String(bytes.byteLength) };
  return new Response(body, { status: refused.status, headers });
}

/** The body as text, or the fault that stops it: the same checks, in the same order, as the Fastify binding's parser. */
async function readBody(request: Request, core: McpHttpHandler): Promise<string | HttpResult | Refused | undefined> {
  if (request.body === null) return undefined;
  // Like Node's HTTP servers: no length, no chunks, no type, no body.
  const declaresBody = request.headers.has('transfer-encoding') || (request.headers.get('content-length') ?? '0') !== '0';
  if (!declaresBody && !request.headers.has('content-type')) return undefined;
  if (!isJsonContentType(request.headers.get('content-type') ?? undefined)) return { refused: core.fault({ kind: 'unsupported-media-type' }) };
  const encoding = headerValue(request.headers.get('content-encoding') ?? undefined);
  // Nothing decompresses here: a compressed body would reach core as garbage.
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return { refused: core.fault({ kind: 'compressed-body' }) };
  const limit = core.options.maxMessageBytes;
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limit) return { refused: core.fault({ kind: 'body-too-large' }) };
  const reader = request.body.getReader();
  // A byte order mark stays in the text, as Node's string decoding keeps it: JSON.parse refuses it (-32700) in both bindings.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let text = '';
  let bytes = 0;
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch {
      // The upload broke off (the client went away): an answer, not a rejected handler the host would log as its own failure.
      return core.fault({ kind: 'incomplete-body' });
    }
    const { done, value } = chunk;
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > limit) return { refused: core.fault({ kind: 'body-too-large' }), reader };
    text += decoder.decode(value, { stream: true });
  }
}

/**
 * The client going away: the request's signal (servers abort it on disconnect), or the response
 * stream cancelled. Once the response is complete, neither means anything.
 */
class ClientWatch {
  private readonly listeners: Array<() => void> = [];
  private settled = false;

  constructor(private readonly signal: AbortSignal | undefined) {
    signal?.addEventListener('abort', this.gone, { once: true });
  }

  /** The client is gone: tells each listener, once. */
  readonly gone = (): void => {
    if (this.settled) return;
    this.settled = true;
    for (const listener of this.listeners.splice(0)) listener();
  };

  /** The response is complete: a client leaving now cancels nothing. */
  settle(): void {
    this.settled = true;
    this.listeners.length = 0;
  }

  /** The core's `onClose`. A client gone before the core asked still counts: its request must not run on. */
  onClose(listener: () => void): void {
    if (this.signal?.aborted) queueMicrotask(listener);
    else if (!this.settled) this.listeners.push(listener);
  }
}

/** The request's header lines as the core reads them. */
function headersOf(request: Request, url: URL): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  // A Request made in process carries no Host header; its URL says the same (servers build it from Host).
  headers.host ??= url.host;
  // Headers joins repeated lines with ", ": the core must see each credential to refuse two.
  const authorization = headers.authorization;
  if (typeof authorization === 'string' && authorization.includes(',')) {
    const credentials = joinedCredentials(authorization);
    if (credentials.length > 1) headers.authorization = credentials;
  }
  return headers;
}

/** What the core reads of a request besides its method and body. */
interface Call {
  path: string;
  headers: Record<string, string | string[]>;
  query: Record<string, string | string[]>;
  remoteAddress: string | undefined;
}

/** The core's answer, or a body refused before it was read in full: the Host/Origin guard, the token and rate limit, the body, the call. */
async function answer(core: McpHttpHandler, request: Request, call: Call, client: ClientWatch): Promise<HttpResult | Refused> {
  const { path, headers, query, remoteAddress } = call;
  const guarded = core.guard(headers, path);
  if (guarded !== undefined) return guarded;
  let auth: AuthInfo | null | undefined;
  if (core.admits) {
    // The token and the rate limit first: a stranger's body, or one over the limit, is never read.
    const outcome = await core.admit({ method: request.method, path, headers, query, remoteAddress });
    if (outcome.refused) return outcome.refused;
    auth = outcome.auth ?? null;
  }
  const body = request.method === 'POST' ? await readBody(request, core) : undefined;
  if (body !== undefined && typeof body !== 'string') return body;
  return core.handle({
    method: request.method,
    path,
    query,
    headers,
    body,
    ...(auth === undefined ? {} : { auth }),
    ...(remoteAddress === undefined ? {} : { remoteAddress }),
    onClose: (listener) => client.onClose(listener),
  });
}

/** An SSE answer as a `ReadableStream` that holds at most `maxBuffered` bytes for a client that does not read (then it errors). */
function streamResponse(result: HttpStreamResult, maxBuffered: number, client: ClientWatch): Response {
  const events = result.stream;
  let sink: EventSink | undefined;
  const readable = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        sink = {
          write: (text) => controller.enqueue(encoder.encode(text)),
          end: () => {
            client.settle();
            controller.close();
          },
          destroy: () => {
            controller.error(new Error('the client does not read its event stream'));
            client.gone();
          },
          get bufferedBytes() {
            return maxBuffered - (controller.desiredSize ?? 0);
          },
        };
      },
      cancel: () => {
        events.close();
        client.gone();
      },
    },
    { highWaterMark: maxBuffered, size: (chunk) => chunk.byteLength },
  );
  events.pipe(sink!);
  return new Response(readable, { status: result.status, headers: result.headers });
}

/**
 * Serves an app's Streamable HTTP endpoint as a web-standard `fetch` handler: Hono, Bun, Deno,
 * Cloudflare Workers, Next.js route handlers. Same options, defaults and answers as the Fastify
 * plugin; an SSE answer is a `ReadableStream` that ends when the client goes away (the request's
 * `signal`, or the stream being cancelled), and holds at most `maxEventBytesPerSession` for a
 * client that does not read (then it errors).
 *
 * @example
 * const mcp = createFetchHandler(app, { path: '/mcp' });
 * Bun.serve({ fetch: mcp }); // or, with Hono: hono.all('/mcp', (c) => mcp(c.req.raw))
 */
export function createFetchHandler(app: McpApp, options: Omit<McpHttpOptions, 'app'> = {}): FetchHandler {
  const core = createHttpHandler({ ...options, app });
  const maxBuffered = core.options.maxEventBytesPerSession;

  const handler = async (request: Request, info?: { remoteAddress?: string }): Promise<Response> => {
    const url = new URL(request.url);
    const call: Call = {
      path: decodePath(url.pathname),
      headers: headersOf(request, url),
      query: queryOf(url.searchParams),
      remoteAddress: info?.remoteAddress,
    };
    const client = new ClientWatch(request.signal);
    const result = await answer(core, request, call, client);
    if ('refused' in result) {
      client.settle();
      return refusedResponse(request, result, core.options);
    }
    if (!('stream' in result)) {
      client.settle();
      return new Response(result.body ?? null, { status: result.status, headers: result.headers });
    }
    return streamResponse(result, maxBuffered, client);
  };
  return Object.assign(handler, { close: () => core.close(), core });
}
