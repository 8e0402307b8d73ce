import type { AuthInfo, McpApp } from '@mcpkit/core';
import { isJsonContentType } from './accept';
import type { EventSink } from './event-stream';
import type { DrainOptions } from './answer-unread-body';
import { createHttpHandler, type McpHttpHandler } from './http-handler';
import { headerValue, type HttpBodyResult, type HttpResult } from './http-result';
import { joinedCredentials } from './joined-credentials';
import type { McpHttpOptions } from './options';

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
      return core.fault({ kind: 'client-error', status: 400, message: 'Bad Request: the request body could not be read in full' });
    }
    const { done, value } = chunk;
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > limit) return { refused: core.fault({ kind: 'body-too-large' }), reader };
    text += decoder.decode(value, { stream: true });
  }
}

/** The path as routers match it (`/mc%70` is `/mcp`); reserved characters stay encoded, a malformed escape stays as sent. */
function decodePath(pathname: string): string {
  try {
    return decodeURI(pathname);
  } catch {
    return pathname;
  }
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
    const query: Record<string, string | string[]> = {};
    url.searchParams.forEach((value, name) => {
      const seen = query[name];
      query[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
    });
    // The client going away: the request's signal (servers abort it on disconnect), or the
    // response stream cancelled. Once the response is complete, neither means anything.
    const listeners: Array<() => void> = [];
    let settled = false;
    const gone = (): void => {
      if (settled) return;
      settled = true;
      for (const listener of listeners.splice(0)) listener();
    };
    request.signal?.addEventListener('abort', gone, { once: true });

    let result = core.guard(headers, decodePath(url.pathname));
    let auth: AuthInfo | null | undefined;
    if (result === undefined && core.admits) {
      // The token and the rate limit first: a stranger's body, or one over the limit, is never read.
      const outcome = await core.admit({ method: request.method, path: decodePath(url.pathname), headers, query, remoteAddress: info?.remoteAddress });
      if (outcome.refused) result = outcome.refused;
      else auth = outcome.auth ?? null;
    }
    if (result === undefined) {
      const body = request.method === 'POST' ? await readBody(request, core) : undefined;
      if (body !== undefined && typeof body !== 'string' && 'refused' in body) {
        settled = true;
        listeners.length = 0;
        return refusedResponse(request, body, core.options);
      }
      result =
        body !== undefined && typeof body !== 'string'
          ? body
          : await core.handle({
              method: request.method,
              path: decodePath(url.pathname),
              query,
              headers,
              body,
              ...(auth === undefined ? {} : { auth }),
              ...(info?.remoteAddress === undefined ? {} : { remoteAddress: info.remoteAddress }),
              // A client gone before the core asked still counts: its request must not run on.
              onClose: (listener) => (request.signal?.aborted ? queueMicrotask(listener) : settled ? undefined : void listeners.push(listener)),
            });
    }
    if (!('stream' in result)) {
      settled = true;
      listeners.length = 0;
      return new Response(result.body ?? null, { status: result.status, headers: result.headers });
    }
    const events = result.stream;
    let sink: EventSink | undefined;
    const readable = new ReadableStream<Uint8Array>(
      {
        start(controller) {
          sink = {
            write: (text) => controller.enqueue(encoder.encode(text)),
            end: () => {
              settled = true;
              controller.close();
            },
            destroy: () => {
              controller.error(new Error('the client does not read its event stream'));
              gone();
            },
            get bufferedBytes() {
              return maxBuffered - (controller.desiredSize ?? 0);
            },
          };
        },
        cancel: () => {
          events.close();
          gone();
        },
      },
      { highWaterMark: maxBuffered, size: (chunk) => chunk.byteLength },
    );
    events.pipe(sink!);
    return new Response(readable, { status: result.status, headers: result.headers });
  };
  return Object.assign(handler, { close: () => core.close(), core });
}
