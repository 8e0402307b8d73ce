import { clip } from '@mcpkit/core';

/**
 * Codes of the failures the client itself detects (not answered by the server). Outside the
 * JSON-RPC ranges a server uses, so a caller tells "the server said no" from "the call never
 * completed" by the code alone.
 */
export const ClientErrorCode = {
  /** The connection closed (the child exited, the HTTP session ended, `close()` was called) before the answer. */
  ConnectionClosed: -31100,
  /** No answer within the request's `timeoutMs`. */
  RequestTimeout: -31101,
  /** The caller's `AbortSignal` aborted the request. */
  RequestCancelled: -31102,
  /** `maxPendingRequests` requests already wait for their answers, or (stdio) `maxMessageBytes` wait for a child that reads nothing. */
  TooManyPendingRequests: -31103,
  /** The server's answer is not a JSON-RPC response, or is over `maxMessageBytes`. */
  InvalidResponse: -31104,
  /** The request is over `maxMessageBytes` and was not sent. */
  MessageTooLarge: -31105,
  /** The HTTP endpoint answered with a status and no JSON-RPC answer (401, 403, 404 of a session, 5xx …): `data.status`. */
  HttpStatus: -31106,
  /** The server speaks no protocol revision this client does (`data.supported`). */
  UnsupportedProtocolVersion: -31107,
  /** A 2026-07-28 request still asked for input after `maxInputRounds` rounds. */
  TooManyInputRounds: -31108,
} as const;

/**
 * Every failure of a client call: a JSON-RPC error the server answered (its `code`, `message`
 * and `data` verbatim) or one the client detected (`ClientErrorCode`).
 *
 * @example
 * try {
 *   await client.callTool('missing', {});
 * } catch (error) {
 *   if (error instanceof McpClientError && error.code === -32602) console.log(error.message, error.data);
 * }
 */
export class McpClientError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'McpClientError';
  }

  /** The error of a JSON-RPC error object as the server sent it (a malformed one is an `InvalidResponse`). */
  static fromWire(error: unknown, method: string): McpClientError {
    if (typeof error !== 'object' || error === null) return McpClientError.invalid(method, 'its error is not an object');
    const { code, message, data } = error as Record<string, unknown>;
    if (typeof code !== 'number' || !Number.isInteger(code)) return McpClientError.invalid(method, 'its error has no integer code');
    return new McpClientError(code, typeof message === 'string' ? message : String(message), data);
  }

  /** The server answered `method` with something that is not a JSON-RPC answer. */
  static invalid(method: string, why: string): McpClientError {
    return new McpClientError(ClientErrorCode.InvalidResponse, clip(`Invalid answer to ${method}: ${why}`));
  }
}
