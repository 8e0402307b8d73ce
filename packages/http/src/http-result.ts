import type { AuthInfo, Logger } from '@mcpkit/core';
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
  /**
   * The binding's id of this HTTP request, logged as `reqId` on the lines of the requests it
   * carries (a binding whose `logger` already binds one, as Fastify's does, leaves it out).
   */
  logId?: string;
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

/** One header's value: the first when repeated, trimmed; undefined when absent or empty. */
export function headerValue(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  const trimmed = first?.trim();
  return trimmed ? trimmed : undefined;
}
