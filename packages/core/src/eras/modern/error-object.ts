import { ErrorCode } from '../../errors/error-codes';
import { toJsonRpcError } from '../../errors/to-json-rpc-error';
import type { JsonRpcErrorObject } from '../../protocol/json-rpc';

/** The modern era's error map: the common one, but an unknown resource is -32602 (it MUST NOT use -32002). */
export function modernErrorObject(error: unknown): JsonRpcErrorObject {
  const object = toJsonRpcError(error);
  return object.code === ErrorCode.ResourceNotFound ? { code: ErrorCode.InvalidParams, message: object.message, data: object.data } : object;
}
