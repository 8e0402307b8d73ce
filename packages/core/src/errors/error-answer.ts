import type { JsonRpcErrorObject, JsonRpcFailure, RequestId } from '../protocol/json-rpc';
import { toJsonRpcError } from './to-json-rpc-error';

/**
 * The JSON-RPC error response to request `id` (null when its id could not be read): `error`
 * through an era's error map (the common one unless told).
 */
export function errorAnswer(id: RequestId | null, error: unknown, errorObject: (error: unknown) => JsonRpcErrorObject = toJsonRpcError): JsonRpcFailure {
  return { jsonrpc: '2.0', id, error: errorObject(error) };
}
