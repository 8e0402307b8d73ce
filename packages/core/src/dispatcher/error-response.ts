import { errorAnswer } from '../errors/error-answer';
import type { JsonRpcFailure, RequestId } from '../protocol/json-rpc';
import type { EraName } from '../wire/frame';
import { ERAS } from '../eras/eras';

/**
 * A JSON-RPC error response by the rules of `era` (the handshake era's unless told); `id` is
 * null when the request's id could not be read.
 */
export function errorResponse(id: RequestId | null, error: unknown, era: EraName = 'handshake'): JsonRpcFailure {
  return errorAnswer(id, error, ERAS[era].errorObject);
}
