import { InternalError, InvalidRequestError, type AuthInfo, type JsonRpcMessage, type Logger, type McpError, type RequestId } from '@mcpkit/core';
import { encodeMessage, errorResponse, type EncodeLimits } from '@mcpkit/core/transport';
import type { EventStream } from './event-stream';

/** Request headers by lower-case name (Node's `IncomingHttpHeaders` fits). */
export type HttpHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** One HTTP request, as a binding hands it to the core. */
export interface HttpRequest {
  /** The HTTP method, upper-case. */
  method: string;
  /** The path, without the query string. */
  path: string;
  /** The query string's parameters (the legacy HTTP+SSE endpoint reads `sessionId`). */
  query?: Readonly<Record<string, string | string[] | undefined>>;
  headers: HttpHeaders;
  /** The body as text; undefined when the request had none. */
  body?: string;
  /**
   * Registers a listener for the client going away before the response ended (the connection
   * closed, the response stream was cancelled). Without it the core cannot tell, so a stateless
   * request whose client left runs to its end.
   */
  onClose?: (listener: () => void) => void;
  /** The logger of this request (e.g. Fastify's `request.log`); default: the handler's. */
  logger?: Logger;
  /** The client's address (`request.ip`), for rate limits of anonymous callers (`ctx.transport.remoteAddress`). */
  remoteAddress?: string;
  /** The client's port, when `remoteAddress` is the connection's peer (`ctx.transport.remotePort`; spans' `client.port`). */
  remotePort?: number;
  /** The HTTP version, `1.1` or `2` (`ctx.transport.httpVersion`; spans' `network.protocol.version`). */
  httpVersion?: string;
  /**
   * Who is calling, when the binding already authenticated the request (`handler.authenticate`,
   * before reading the body): `null` for an anonymous request the endpoint allows. Left out, the
   * core authenticates it itself.
   */
  auth?: AuthInfo | null;
}

/** A response with a body (or none: `202`, an empty `200`). */
export interface HttpBodyResult {
  status: number;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A `text/event-stream` response: the binding writes the head, then pipes `stream` to the client. */
export interface HttpStreamResult {
  status: number;
  headers: Record<string, string>;
  stream: EventStream;
}

/** What the core answers a request with. */
export type HttpResult = HttpBodyResult | HttpStreamResult;

// With its charset, as Fastify has always sent it: every binding answers with the same bytes.
const JSON_HEADERS = (): Record<string, string> => ({ 'content-type': 'application/json; charset=utf-8' });

/**
 * A JSON-RPC body serialised by core: an answer too big or impossible to serialise becomes a
 * -32603 error for its id instead of a failure after the status is chosen, and exact numeric ids
 * keep the client's digits.
 */
export function jsonResult(status: number, message: JsonRpcMessage | readonly JsonRpcMessage[], limits: EncodeLimits, logger?: Logger): HttpBodyResult {
  const text = encodeMessage(message as JsonRpcMessage, limits, logger) ?? encodeMessage(errorResponse(null, new InternalError()), limits)!;
  return { status, headers: JSON_HEADERS(), body: text };
}

// An error body holds a message and maybe a little data: a small bound is plenty.
const ERROR_LIMITS: EncodeLimits = Object.freeze({ maxMessageBytes: 64 * 1024, maxBatchBytes: 64 * 1024 });

/** An HTTP status with a JSON-RPC error body, the request id when it is known. */
export function errorResult(status: number, error: McpError, id: RequestId | null = null, headers?: Record<string, string>): HttpBodyResult {
  const result = jsonResult(status, errorResponse(id, error), ERROR_LIMITS);
  if (headers) result.headers = { ...headers, ...result.headers };
  return result;
}

/** 415 for a body that is not `application/json`: the same answer whether the core or a binding finds it. */
export function notJsonResult(): HttpBodyResult {
  return errorResult(415, new InvalidRequestError('Unsupported Media Type: send the JSON-RPC message as application/json'));
}

/** 415 for a compressed body (`Content-Encoding`): never parsed as JSON. */
export function compressedBodyResult(): HttpBodyResult {
  return errorResult(415, new InvalidRequestError('Unsupported Media Type: a compressed body (Content-Encoding) is not accepted; send plain JSON'));
}

/** A response without a body. */
export function emptyResult(status: number): HttpBodyResult {
  return { status, headers: {}, body: undefined };
}

/** One header's value: the first when repeated, trimmed; undefined when absent or empty. */
export function headerValue(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  const trimmed = first?.trim();
  return trimmed ? trimmed : undefined;
}
