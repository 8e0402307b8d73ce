import {
  AuthenticationRequiredError,
  InternalError,
  InvalidParamsError,
  InvalidRequestError,
  InvalidTokenDenial,
  ParseError,
  UnsupportedProtocolVersionError,
  type JsonRpcMessage,
  type JsonRpcResponse,
  type Logger,
  type McpError,
  type RequestId,
} from '@mcpkit/core';
import { encodeMessage, errorResponse, type EncodeLimits } from '@mcpkit/core/transport';
import type { EventStream } from './event-stream';
import type { HttpEra } from './http-era';
import type { HttpBodyResult, HttpStreamResult } from './http-result';

// Every HTTP status the transport decides itself is in this file (issue #27): a reader finds the
// whole wire of a refusal in one line, and no binding can answer a fault its own way.
// `test/status-table.int.spec.ts` keeps every other file of the package, and the bindings, from passing
// a numeric status to a result builder or making a wire error.

/** A fault the transport finds before (or instead of) a handler's answer: its status, JSON-RPC error and headers. */
export interface Fault {
  readonly status: number;
  readonly error: McpError;
  readonly headers?: Readonly<Record<string, string>>;
}

function fault(status: number, error: McpError, headers?: Readonly<Record<string, string>>): Fault {
  return headers === undefined ? { status, error } : { status, error, headers };
}

const refused = (message: string, data?: unknown): InvalidRequestError => new InvalidRequestError(message, data);

// A client told to come back: soon after a slot frees, sooner when a shared store blinked.
const RETRY_FULL = Object.freeze({ 'retry-after': '5' });
const RETRY_UNAVAILABLE = Object.freeze({ 'retry-after': '1' });

/** A browser must read a challenge to find the metadata and the scopes. */
function challenge(header: string): Record<string, string> {
  return { 'www-authenticate': header, 'access-control-expose-headers': 'WWW-Authenticate' };
}

/** The transport's faults by name. Each call makes a fresh error, as a throw site would. */
export const FAULTS = Object.freeze({
  /** DNS-rebinding protection: a `Host` not on the allow list. */
  badHost: () => fault(403, refused('Forbidden: this Host is not allowed')),
  /** DNS-rebinding protection: an `Origin` not on the allow list. */
  badOrigin: () => fault(403, refused('Forbidden: this Origin is not allowed')),
  /** A body over `maxMessageBytes`. */
  payloadTooLarge: (limit: number) => fault(413, refused(`Payload Too Large: the limit is ${limit} bytes`)),
  /** A body that is not `application/json`: the same answer whether the core or a binding finds it. */
  unsupportedMediaType: () => fault(415, refused('Unsupported Media Type: send the JSON-RPC message as application/json')),
  /** A compressed body (`Content-Encoding`): never parsed as JSON. */
  compressedBody: () => fault(415, refused('Unsupported Media Type: a compressed body (Content-Encoding) is not accepted; send plain JSON')),
  /** A body that cannot be read as a message (empty where one is needed, a wrong length). */
  malformedBody: () => fault(400, new ParseError()),
  /** An upload that broke off before its end. */
  incompleteBody: () => fault(400, refused('Bad Request: the request body could not be read in full')),
  /** Node's parser gave up waiting for the request (`requestTimeout`). */
  requestTimeout: () => fault(408, refused('Request Timeout')),
  /** Node's parser refused headers over its bound. */
  headersTooLarge: () => fault(431, refused('Request Header Fields Too Large')),
  /** Node's parser refused the request as HTTP. */
  malformedRequest: () => fault(400, refused('Bad Request')),
  /** Another client error a framework found, with the framework's own 4xx status (undefined for any other status). */
  frameworkClientError: (status: number, message: string): Fault | undefined => (status >= 400 && status < 500 ? fault(status, refused(message)) : undefined),
  /** Anything else: a bug, logged where it is found. */
  internal: () => fault(500, new InternalError()),
  /** A path the endpoint does not serve. */
  noEndpoint: () => fault(404, refused('Not Found: no MCP endpoint at this path')),
  /** A method the path does not take; `allow` lists those it does. */
  methodNotAllowed: (allow: string) => fault(405, refused('Method Not Allowed'), { allow }),
  /** A POST whose `Accept` does not list both answers it may get. */
  notAcceptable: () => fault(406, refused('Not Acceptable: the Accept header must list both application/json and text/event-stream')),
  /** A GET whose `Accept` does not list an event stream. */
  notAcceptableStream: () => fault(406, refused('Not Acceptable: the Accept header must list text/event-stream')),
  /** A revision this server does not speak, named by `MCP-Protocol-Version` on a POST: -32022, which a modern client recognises. */
  unsupportedVersion: (version: string) => fault(400, new UnsupportedProtocolVersionError(version)),
  /** A revision the session's era does not include, named on a GET or DELETE. */
  unsupportedVersionHeader: (version: string, supported: readonly string[]) =>
    fault(400, refused(`Unsupported MCP-Protocol-Version: ${version}`, { supported })),
  /** What core's era rules refuse before a request runs (its headers against its body, a batch without a version, a revision the transport lacks). */
  eraRefusal: (error: McpError) => fault(400, error),
  /** A POST after `initialize` without `Mcp-Session-Id`. */
  missingSessionIdOnPost: () => fault(400, refused('Missing Mcp-Session-Id header: send initialize first')),
  /** A GET or DELETE without `Mcp-Session-Id`. */
  missingSessionId: () => fault(400, refused('Missing Mcp-Session-Id header')),
  /** A session that ended, never existed, or is another subject's (A14: the same answer). */
  unknownSession: () => fault(404, refused('Session not found: it ended or never existed; initialize a new one')),
  /** A second GET stream for one session. */
  streamConflict: () => fault(409, refused('Conflict: this session already has an open GET stream')),
  /** A `Last-Event-ID` nothing can be replayed from. */
  unknownLastEventId: () => fault(400, refused('Unknown Last-Event-ID: nothing can be replayed from it')),
  /** Every session slot of this instance is busy. */
  atCapacity: () => fault(503, refused('Too many sessions; try again later'), RETRY_FULL),
  /** This endpoint holds `maxListens` open listens already. */
  listensFull: (limit: number) =>
    fault(503, refused(`Too many open subscriptions/listen requests on this server (maxListens ${limit}); try again later`, { limit }), RETRY_FULL),
  /** The shared session store (or router) cannot be reached: never 404 (the client would drop a healthy session) nor 500. */
  sessionStoreUnavailable: () =>
    fault(503, new InternalError('Service temporarily unavailable: the session store cannot be reached; try again shortly'), RETRY_UNAVAILABLE),
  /** An `initialize` whose session record the store refuses as too large. */
  sessionRecordTooLarge: (maxBytes: number) =>
    fault(400, new InvalidParamsError(`initialize: the client's info and capabilities are too large to keep for a session (at most ${maxBytes} bytes)`)),
  /** The legacy HTTP+SSE messages endpoint without `sessionId`. */
  missingSseSessionId: () => fault(400, refused('Missing sessionId query parameter')),
  /** The legacy HTTP+SSE messages endpoint with a `sessionId` whose stream is gone. */
  unknownSseSession: () => fault(404, refused('Session not found: open the SSE stream again')),
  /** Over the endpoint's rate limit (decided before the body is read: id null, as a 401 there). */
  rateLimited: (waitMs: number) => {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    return fault(429, refused(`Too Many Requests: retry in ${seconds} s`, { retryAfterMs: waitMs }), { 'retry-after': String(seconds) });
  },
  /** No credentials, or another scheme (RFC 6750 §3.1): `header` is the challenge. */
  authenticationRequired: (header: string) => fault(401, new AuthenticationRequiredError(), challenge(header)),
  /** A token the verifier refused (`401 invalid_token`): `header` is the challenge. */
  invalidToken: (header: string, description: string) => fault(401, new InvalidTokenDenial(description), challenge(header)),
  /** Credentials sent where or how they must not be (RFC 6750 §3.1 `invalid_request`). */
  badCredentials: (message: string) => fault(400, refused(`Bad Request: ${message}`), { 'www-authenticate': `Bearer error="invalid_request"` }),
  /** The verifier failed (the authorization server unreachable): a token is never accepted without an answer. */
  tokenUnverifiable: () => fault(503, new InternalError('Service Unavailable: the token cannot be verified now')),
});

/** The errors one request is answered with where the transport decides no status (inside a stream, a batch, a request line). */
export const REQUEST_FAULTS = Object.freeze({
  /** Every request of a json POST was cancelled (notifications/cancelled): a JSON POST still ends with a body. */
  cancelled: () => new InternalError('Request cancelled: the client sent notifications/cancelled, so no result follows'),
  /** Scale-out: the instance serving a followed stream ended before the answer. */
  instanceGone: () => new InternalError('The server instance serving this request ended before answering; send the request again'),
  /** Scale-out: the shared store could not keep a stream's events for a resumption. */
  streamNotKept: () => new InternalError('The event store could not keep this stream for a resumption; the request failed, try it again'),
  /** A batch's further messages over the rate limit, as their request lines say. */
  rateLimited: () => refused('Too Many Requests'),
});

// The statuses of the answers the transport gives without a fault (an era's JSON answers take
// theirs from the era's table, `HttpEra.status`).
const STATUS = Object.freeze({
  ok: 200,
  accepted: 202,
  noContent: 204,
  /** A body that is not JSON: core's -32700 answer. */
  unparsable: 400,
  /** A POST of notifications and responses only, some of them refused: core's errors about them. */
  refusedMessages: 400,
  /** One request's access denial, anonymous: the client must authenticate. */
  authenticationRequired: 401,
  /** One request's access denial, authenticated. */
  forbidden: 403,
});

/** What an answer without a fault is, for its status. */
export type AnswerKind = keyof typeof STATUS;

// With its charset, as Fastify has always sent it: every binding answers with the same bytes.
const JSON_HEADERS = (): Record<string, string> => ({ 'content-type': 'application/json; charset=utf-8' });

// An error body holds a message and maybe a little data: a small bound is plenty.
const ERROR_LIMITS: EncodeLimits = Object.freeze({ maxMessageBytes: 64 * 1024, maxBatchBytes: 64 * 1024 });

/**
 * A JSON-RPC body serialised by core: an answer too big or impossible to serialise becomes a
 * -32603 error for its id instead of a failure after the status is chosen, and exact numeric ids
 * keep the client's digits.
 */
function jsonResult(status: number, message: JsonRpcMessage | readonly JsonRpcMessage[], limits: EncodeLimits, logger?: Logger): HttpBodyResult {
  const text = encodeMessage(message as JsonRpcMessage, limits, logger) ?? encodeMessage(errorResponse(null, new InternalError()), limits)!;
  return { status, headers: JSON_HEADERS(), body: text };
}

/** The answer to `fault`, with the request id when it is known. */
export function faultResult(fault: Fault, id: RequestId | null = null): HttpBodyResult {
  const result = jsonResult(fault.status, errorResponse(id, fault.error), ERROR_LIMITS);
  if (fault.headers) result.headers = { ...fault.headers, ...result.headers };
  return result;
}

/** A JSON answer the transport gives without a fault (`kind` decides its status). */
export function answerResult(kind: AnswerKind, message: JsonRpcMessage | readonly JsonRpcMessage[], limits: EncodeLimits, logger?: Logger): HttpBodyResult {
  return jsonResult(STATUS[kind], message, limits, logger);
}

/** An era's JSON answer, with the status of that era's table. */
export function eraAnswerResult(era: HttpEra, answer: JsonRpcResponse | readonly JsonRpcResponse[], limits: EncodeLimits, logger?: Logger): HttpBodyResult {
  return jsonResult(era.status(answer), answer, limits, logger);
}

/** A response with `body` (or none) and `headers` as given. */
export function bodyResult(kind: AnswerKind, headers: Record<string, string>, body?: string): HttpBodyResult {
  return { status: STATUS[kind], headers, body };
}

/** An event stream's head: the binding writes it, then pipes `stream`. */
export function streamResult(headers: Record<string, string>, stream: EventStream): HttpStreamResult {
  return { status: STATUS.ok, headers, stream };
}

/**
 * The answer to a request the binding's HTTP layer refused before any route saw it (a `4xx`
 * status and a reason): a JSON-RPC `-32600` body, as every other refusal.
 *
 * @deprecated A binding names its fault instead (`handler.fault`, `answerClientError`): the status is the core's to pick.
 */
export function clientErrorResult(status: number, message: string): HttpBodyResult {
  return faultResult(fault(status, refused(message)));
}
