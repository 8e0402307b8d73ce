import { clip } from './clip';
import { ErrorCode } from './error-codes';

const MCP_ERROR_BRAND: unique symbol = Symbol.for('mcpkit.error') as never;

/**
 * An error that travels on the wire as a JSON-RPC error object. Throw a subclass (or this
 * class with any code) from a resource or prompt handler to answer with that error.
 *
 * @example
 * throw new InvalidParamsError('Unknown city', { city });
 */
export class McpError extends Error {
  readonly [MCP_ERROR_BRAND] = true;

  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }

  /**
   * Recognises mcpkit wire errors by brand rather than `instanceof`, so two installed copies of
   * the package still agree.
   */
  static isMcpError(value: unknown): value is McpError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MCP_ERROR_BRAND] === true;
  }
}

/** `-32700`: the bytes were not JSON. */
export class ParseError extends McpError {
  constructor(message = 'Parse error: the message is not valid JSON', data?: unknown) {
    super(ErrorCode.ParseError, message, data);
  }
}

/** `-32600`: JSON, but not a valid JSON-RPC request. */
export class InvalidRequestError extends McpError {
  constructor(message: string, data?: unknown) {
    super(ErrorCode.InvalidRequest, message, data);
  }
}

/** `-32601`: the method does not exist or its capability is not offered. */
export class MethodNotFoundError extends McpError {
  constructor(method: string) {
    super(ErrorCode.MethodNotFound, `Method not found: ${clip(method)}`);
  }
}

/** `-32602`: the request's params are wrong (unknown tool or prompt, bad arguments …). */
export class InvalidParamsError extends McpError {
  constructor(message: string, data?: unknown) {
    super(ErrorCode.InvalidParams, message, data);
  }
}

/** `-32603`: an unexpected failure; the message never carries internals. */
export class InternalError extends McpError {
  constructor(message = 'Internal error', data?: unknown, options?: ErrorOptions) {
    super(ErrorCode.InternalError, message, data, options);
  }
}

/** `-32002` on the handshake era: no resource has this URI. */
export class ResourceNotFoundError extends McpError {
  constructor(readonly uri: string) {
    super(ErrorCode.ResourceNotFound, 'Resource not found', { uri: clip(uri) });
  }
}
