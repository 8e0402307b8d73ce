import { clip } from './clip';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/protocol-versions';
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

/** What a deliberate handler error (`PromptError`, `ResourceError`) may set besides its message. */
export interface McpErrorOptions {
  /** The JSON-RPC error code (default `-32603`, `ErrorCode.InternalError`). */
  code?: number;
  /** Sent as the error's `data`: JSON-shaped, and meant for the client. */
  data?: unknown;
  /** The underlying error (`error.cause`), for your own logging: it never reaches the client. */
  cause?: unknown;
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
  /** `why` says more when the method exists elsewhere (removed in the revision in force). */
  constructor(method: string, why?: string) {
    super(ErrorCode.MethodNotFound, why === undefined ? `Method not found: ${clip(method)}` : `Method not found: ${clip(method)} (${why})`);
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

/** `-32002` on the legacy era: no resource has this URI. */
export class ResourceNotFoundError extends McpError {
  constructor(readonly uri: string) {
    super(ErrorCode.ResourceNotFound, 'Resource not found', { uri: clip(uri) });
  }
}

/** `-32020`: an HTTP header disagrees with the body, or a required one is missing (modern era). */
export class HeaderMismatchError extends McpError {
  constructor(message: string) {
    super(ErrorCode.HeaderMismatch, message);
  }

  /** A header whose value differs from the body's; both values quoted, clipped (client input). */
  static mismatch(header: string, sent: unknown, body: unknown): HeaderMismatchError {
    return new HeaderMismatchError(`Header mismatch: ${header} header value '${clip(String(sent))}' does not match body value '${clip(String(body))}'`);
  }
}

/**
 * `-32021`: serving the request needs a client capability this request did not declare.
 * `required` is the `ClientCapabilities` shape to declare when it is nested (`elicitation.url`).
 */
export class MissingRequiredClientCapabilityError extends McpError {
  constructor(capability: string, required: Record<string, unknown> = { [capability]: {} }) {
    super(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: ${capability}`, { requiredCapabilities: required });
  }
}

/**
 * `-32022`: the request names a revision this server does not serve; `supported` lists those it
 * does (every revision, unless the endpoint serves fewer).
 */
export class UnsupportedProtocolVersionError extends McpError {
  constructor(requested: string, supported: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS) {
    super(ErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version', { supported: [...supported], requested: clip(requested) });
  }
}

/**
 * `-32005`: the connection already runs as many requests as it may (`maxRequestsInFlight`); the
 * client waits for some to end, or cancels them, and sends again.
 */
export class TooManyRequestsInFlightError extends McpError {
  constructor(readonly limit: number) {
    super(
      ErrorCode.TooManyRequestsInFlight,
      `Too many requests in flight: this connection already runs ${limit}; wait for some to finish (or cancel them) and send again`,
      { limit },
    );
  }
}
