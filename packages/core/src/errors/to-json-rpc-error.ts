import type { JsonRpcErrorObject } from '../protocol/json-rpc';
import { ErrorCode } from './error-codes';
import { McpError } from './mcp-error';

/**
 * The one place that turns anything thrown into a JSON-RPC error object (each era's codec adjusts
 * the few codes its revision answers differently). Our wire errors keep
 * their code, message and data; anything else is an internal error whose details stay in the
 * server log.
 */
export function toJsonRpcError(error: unknown): JsonRpcErrorObject {
  if (McpError.isMcpError(error)) {
    return error.data === undefined ? { code: error.code, message: error.message } : { code: error.code, message: error.message, data: error.data };
  }
  return { code: ErrorCode.InternalError, message: 'Internal error' };
}
