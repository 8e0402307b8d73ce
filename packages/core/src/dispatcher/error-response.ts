import { errorAnswer } from '../errors/error-answer';
import type { JsonRpcFailure, RequestId } from '../protocol/json-rpc';
import type { EraName } from '../wire/frame';
import { eraName, type DeprecatedEraName } from '../eras/era-name';
import { ERAS } from '../eras/eras';

/**
 * A JSON-RPC error response by the rules of `era` (the legacy era's unless told); `id` is
 * null when the request's id could not be read.
 */
export function errorResponse(id: RequestId | null, error: unknown, era: EraName | DeprecatedEraName = 'legacy'): JsonRpcFailure {
  return errorAnswer(id, error, ERAS[eraName(era)].errorObject);
}
