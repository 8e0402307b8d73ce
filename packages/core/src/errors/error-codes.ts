/** JSON-RPC and MCP error codes (protocol.md §11). */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Legacy era only; the modern era answers not-found with InvalidParams. */
  ResourceNotFound: -32002,
  /** An HTTP header disagrees with the body, or a required one is missing (modern era). */
  HeaderMismatch: -32020,
  /** Serving the request needs a client capability the request did not declare (modern era). */
  MissingRequiredClientCapability: -32021,
  /** The request names a protocol revision this server does not serve. */
  UnsupportedProtocolVersion: -32022,
  /**
   * The connection (a session, a stdio connection) already runs `maxRequestsInFlight` requests
   * (`data.limit`). In the implementation-defined server-error range (−32000…−32019); −32000…
   * −32004 carry other meanings in the SDKs and an early 2026 draft, so this is −32005.
   */
  TooManyRequestsInFlight: -32005,
  /**
   * The caller may not use this primitive (`data.error`: `authentication_required`,
   * `insufficient_scope`, `forbidden`). Outside −32768…−32000, as 2026-07-28 asks of new codes.
   */
  AccessDenied: -31001,
  /**
   * No task can be created now: the caller's share of the task store (`data.bound` `owner`,
   * `data.limit` its `maxTasksPerOwner`) or the whole store (`store`, `maxTasks`) is full of tasks
   * that are all still running (a finished one would have made room). Outside −32768…−32000, as
   * 2026-07-28 asks of new codes.
   */
  TaskStoreFull: -31002,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];
