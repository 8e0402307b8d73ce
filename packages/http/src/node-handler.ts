import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo, McpApp } from '@mcpkit/core';
import { isCompressed, isJsonContentType } from './accept';
import { answerUnreadBody, hasUnreadBody } from './answer-unread-body';
import { onClientGone } from './client-gone';
import { createHttpHandler, type McpHttpHandler, type TransportFault } from './http-handler';
import type { HttpHeaders, HttpRequest, HttpResult } from './http-result';
import { bodyHead, pipeStream } from './node-response';
import type { McpHttpOptions } from './options';
import { decodePath, originForm, pathEnd, queryOf } from './request-target';

/**
 * A `node:http` request listener serving an app's Streamable HTTP endpoint. With `next`, a
 * request for another path (or a method the path does not take) goes there; without it, the
 * endpoint answers it (`404`, `405`).
 */
export interface NodeHandler {
  (req: IncomingMessage, res: ServerResponse, next?: () => void): void;
  /** Ends streams and sessions (shutdown); the server itself is the caller's to close. */
  close(): Promise<void>;
  /** @internal The core it binds. */
  readonly core: McpHttpHandler;
}

/** A request as Express and Connect pass it to a middleware: `originalUrl` is the target as sent. */
type MountedRequest = IncomingMessage & { originalUrl?: string };

// Methods whose body Node's servers, and Fastify, never read.
const BODYLESS = new Set(['GET', 'HEAD', 'TRACE']);
const NO_QUERY: HttpRequest['query'] = Object.freeze({});
const CLOSING = Object.freeze({ connection: 'close' });

/**
 * The request's headers as the core reads them: Node keeps only the first `Authorization` of
 * several, and the core must see each credential to refuse two.
 */
export function nodeHeaders(req: IncomingMessage): HttpHeaders {
  const raw = req.rawHeaders;
  let values: string[] | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length === 13 && raw[i].toLowerCase() === 'authorization') (values ??= []).push(raw[i + 1]);
  }
  return values === undefined || values.length < 2 ? req.headers : { ...req.headers, authorization: values };
}

/** What a request's body turned out to be: its text, none, or the fault that stops it. */
type BodyOutcome = { text: string | undefined } | { fault: TransportFault };

/**
 * Reads a request's body as the Fastify binding's parser does, with the same checks in the same
 * order: a body must be JSON, uncompressed and within `limit` bytes. `done` is called once.
 */
function readBody(req: IncomingMessage, limit: number, done: (outcome: BodyOutcome) => void): void {
  const type = req.headers['content-type'];
  if (BODYLESS.has(req.method!) || (type === undefined && !hasUnreadBody(req))) return done({ text: undefined });
  if (!isJsonContentType(type)) return done({ fault: { kind: 'unsupported-media-type' } });
  // Nothing inflates it here: a compressed body would reach the core as garbage.
  if (isCompressed(req.headers['content-encoding'])) return done({ fault: { kind: 'compressed-body' } });
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return done({ fault: { kind: 'body-too-large' } });
  if (req.destroyed) return done({ fault: { kind: 'incomplete-body' } });
  // Read by someone else first (a body parser mounted before this handler): nothing is left to read.
  if (req.readableEnded)
    return done({ fault: { kind: 'internal', error: new Error('the request body was already read: mount the MCP handler before any body parser') } });
  const chunks: Buffer[] = [];
  let size = 0;
  const finish = (outcome: BodyOutcome): void => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onBroken);
    req.off('close', onBroken);
    done(outcome);
  };
  const onData = (chunk: Buffer): void => {
    size += chunk.length;
    if (size > limit) {
      // What is left is the refusal's to drain: this listener stops reading it.
      req.pause();
      finish({ fault: { kind: 'body-too-large' } });
    } else chunks.push(chunk);
  };
  // A byte order mark stays in the text (JSON.parse refuses it: -32700), as in the other bindings.
  const onEnd = (): void => finish({ text: chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks, size).toString('utf8') });
  // The upload broke off (the client went away): an answer, if anyone is still there to read it.
  const onBroken = (): void => finish({ fault: { kind: 'incomplete-body' } });
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onBroken);
  req.on('close', onBroken);
}

/**
 * Serves an app's Streamable HTTP endpoint as a `node:http` request listener: a plain
 * `createServer`, Express or Connect (`app.use(mcp)`: other paths go to `next`). Same options,
 * defaults and answers as the Fastify plugin and the fetch handler, with no framework in between:
 * the Host/Origin guard, the token and the rate limit before a body is read, a refused body
 * answered and then drained, an SSE answer streamed until the client goes.
 *
 * @example
 * const mcp = createNodeHandler(app);
 * createServer((req, res) => mcp(req, res)).listen(3000, '127.0.0.1');
 */
export function createNodeHandler(app: McpApp, options: Omit<McpHttpOptions, 'app'> = {}): NodeHandler {
  const core = createHttpHandler({ ...options, app });
  const limit = core.options.maxMessageBytes;
  // Each HTTP request's `reqId` on its log lines, as Fastify numbers them.
  let requests = 0;
  const routes = new Map<string, ReadonlySet<string>>(core.routes.map(({ methods, path }) => [path, new Set(methods)]));

  const write = (req: IncomingMessage, res: ServerResponse, result: HttpResult): void => {
    if (res.headersSent || res.destroyed) return;
    try {
      if ('stream' in result) pipeStream(res, result);
      else res.writeHead(result.status, bodyHead(result, req.method)).end(result.body);
    } catch (error) {
      // A header the core should never produce: the client still gets an answer.
      if (res.headersSent) return void res.destroy();
      const failed = core.fault({ kind: 'internal', error });
      res.writeHead(failed.status, bodyHead(failed, req.method)).end(failed.body);
    }
  };

  /** A body refused before it was read in full goes out at once, then what the client still sends is read. */
  const refuse = (req: IncomingMessage, res: ServerResponse, fault: TransportFault): void => {
    const result = core.fault(fault);
    // `Connection: close` first for a body read too far or compressed, where Fastify puts it:
    // both bindings send the same bytes. Also when the body has already arrived whole (it came
    // with its head while a token was checked): Fastify closes after any body it refused.
    const first = fault.kind === 'body-too-large' || fault.kind === 'compressed-body' ? CLOSING : undefined;
    if (hasUnreadBody(req) && !res.headersSent && !res.destroyed) answerUnreadBody(req, res, result, core.options, first);
    else write(req, res, first === undefined ? result : { ...result, headers: { ...first, ...result.headers } });
  };

  const serve = (req: IncomingMessage, res: ServerResponse, path: string, query: HttpRequest['query']): void => {
    const method = req.method!;
    const headers = nodeHeaders(req);
    const refused = core.guard(headers, path);
    if (refused) return write(req, res, refused);
    const socket = req.socket;
    const run = (auth: AuthInfo | null | undefined): void =>
      readBody(req, limit, (outcome) => {
        if ('fault' in outcome) return refuse(req, res, outcome.fault);
        core
          .handle({
            auth,
            method,
            path,
            query,
            headers,
            body: outcome.text,
            logId: `req-${(++requests).toString(36)}`,
            remoteAddress: socket.remoteAddress,
            remotePort: socket.remotePort,
            httpVersion: req.httpVersion,
            onClose: (listener) => onClientGone(req, res, listener),
          })
          .then(
            (result) => write(req, res, result),
            (error: unknown) => write(req, res, core.fault({ kind: 'internal', error })),
          );
      });
    if (!core.admits) return run(undefined);
    // The token and the rate limit before the body is read: a stranger's body, or one over the limit, costs nothing.
    core.admit({ method, path, headers, query, remoteAddress: socket.remoteAddress }).then(
      (outcome) => (outcome.refused ? write(req, res, outcome.refused) : run(outcome.auth ?? null)),
      (error: unknown) => write(req, res, core.fault({ kind: 'internal', error })),
    );
  };

  const handler = (req: IncomingMessage, res: ServerResponse, next?: () => void): void => {
    // Express and Connect hand a middleware mounted at a prefix (`app.use('/mcp', mcp)`) a `url`
    // without it; `path` is the URL clients use, so it is matched against the whole target.
    const url = originForm((req as MountedRequest).originalUrl ?? req.url ?? '/');
    const mark = pathEnd(url);
    const path = decodePath(mark < 0 ? url : url.slice(0, mark));
    if (next !== undefined && routes.get(path)?.has(req.method!) !== true) return next();
    serve(req, res, path, mark < 0 ? NO_QUERY : queryOf(new URLSearchParams(url.slice(mark + 1))));
  };
  return Object.assign(handler, { close: () => core.close(), core });
}
