import type { JsonRpcErrorObject } from '../protocol/json-rpc';
import { ErrorCode } from './error-codes';
import { McpError } from './mcp-error';

/**
 * The one place that turns anything thrown into a JSON-RPC error object. Our wire errors keep
 * their code, message and data; anything else is an internal error whose details stay in the
 * server log.
 */
export function toJsonRpcError(error: unknown, modern = false): JsonRpcErrorObject {
  if (McpError.isMcpError(error)) {
    // 2026-07-28 answers an unknown resource with -32602 (and MUST NOT use -32002).
    if (modern && error.code === ErrorCode.ResourceNotFound) return { code: ErrorCode.InvalidParams, message: error.message, data: error.data };
    return error.data === undefined ? { code: error.code, message: error.message } : { code: error.code, message: error.message, data: error.data };
  }
  return { code: ErrorCode.InternalError, message: 'Internal error' };
}
