/** JSON-RPC and MCP error codes (protocol.md §11). */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Legacy revisions only; 2026-07-28 answers not-found with InvalidParams. */
  ResourceNotFound: -32002,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];
