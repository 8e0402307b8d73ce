import type { JsonRpcErrorObject } from '../protocol/json-rpc';
import { ErrorCode } from './error-codes';
import { McpError } from './mcp-error';
import { ToolError } from './tool-error';

/**
 * True for an error thrown on purpose with a message for the client: a wire error (`McpError`
 * and its subclasses) or a `ToolError` outside a tool. Its message is sent; the server log does
 * not report it as a failure.
 */
export function isDeliberateError(error: unknown): boolean {
  return McpError.isMcpError(error) || ToolError.isToolError(error);
}

/**
 * The one place that turns anything thrown into a JSON-RPC error object (each era's codec adjusts
 * the few codes its revision answers differently). Our wire errors keep their code, message and
 * data; a `ToolError` (thrown where no tool result can carry it: a prompt, a resource) keeps its
 * message as an internal error; anything else is an internal error whose details stay in the
 * server log.
 */
export function toJsonRpcError(error: unknown): JsonRpcErrorObject {
  if (McpError.isMcpError(error)) {
    return error.data === undefined ? { code: error.code, message: error.message } : { code: error.code, message: error.message, data: error.data };
  }
  if (ToolError.isToolError(error)) return { code: ErrorCode.InternalError, message: error.message };
  return { code: ErrorCode.InternalError, message: 'Internal error' };
}
