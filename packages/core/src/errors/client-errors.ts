import { clip } from './clip';
import { ToolError } from './tool-error';

/**
 * A server-to-client request the client cannot take: it never declared the capability, or the
 * request has no session to travel on (stateless HTTP). Unhandled in a tool, its message is the
 * tool's error result.
 */
export class ClientCapabilityError extends ToolError {
  constructor(message: string) {
    super(message);
    this.name = 'ClientCapabilityError';
  }
}

/** The client did not answer a server-to-client request in time (it was cancelled). */
export class RequestTimeoutError extends ToolError {
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
  ) {
    super(`The client did not answer ${method} within ${timeoutMs} ms`);
    this.name = 'RequestTimeoutError';
  }
}

/**
 * A client that let a `roots/list` time out in this session is not asked again until it shows
 * life (answers any request of the server's, or sends `notifications/roots/list_changed`): the
 * call fails at once instead of waiting once more. A `RequestTimeoutError`, so code that handles
 * the first timeout handles this one too.
 */
export class SilentClientError extends RequestTimeoutError {
  constructor(method: string, timeoutMs: number) {
    super(method, timeoutMs);
    this.message = `The client did not answer ${method} within ${timeoutMs} ms earlier in this session; it is not asked again until it answers a request or sends notifications/roots/list_changed`;
    this.name = 'SilentClientError';
  }
}

/** The connection ended while a server-to-client request waited for its answer. */
export class ConnectionClosedError extends ToolError {
  constructor(readonly method: string) {
    super(`The connection closed before the client answered ${method}`);
    this.name = 'ConnectionClosedError';
  }
}

/** The client answered a server-to-client request with a JSON-RPC error. */
export class ClientRequestError extends ToolError {
  constructor(
    readonly method: string,
    readonly code: number,
    readonly clientMessage: string,
    readonly data?: unknown,
  ) {
    super(`The client answered ${method} with error ${code}: ${clip(clientMessage)}`);
    this.name = 'ClientRequestError';
  }
}

/** A tool ran past its timeout (`@Tool({ timeoutMs })` or `createApp({ toolTimeoutMs })`); its signal was aborted. */
export class ToolTimeoutError extends ToolError {
  constructor(
    readonly tool: string,
    readonly timeoutMs: number,
  ) {
    super(`Tool ${tool} timed out after ${timeoutMs} ms and was cancelled`);
    this.name = 'ToolTimeoutError';
  }
}
