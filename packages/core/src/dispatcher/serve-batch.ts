import { errorAnswer } from '../errors/error-answer';
import { InvalidRequestError } from '../errors/mcp-error';
import type { Logger } from '../logging/logger';
import type { JsonRpcResponse } from '../protocol/json-rpc';
import type { EraName, Frame } from '../wire/frame';
import { classify } from '../eras/classify';
import { ERAS } from '../eras/eras';

/**
 * Why a batch of `length` messages is refused as a whole: no batching in the negotiated
 * revision (`revisionRefusal` says why), empty, over `limit` (maxBatchLength, logged).
 */
export function batchRefusal(length: number, revisionRefusal: string | undefined, limit: number, logger: () => Logger): InvalidRequestError | undefined {
  if (revisionRefusal !== undefined) return new InvalidRequestError(revisionRefusal);
  if (length === 0) return new InvalidRequestError('An empty batch is not a valid request');
  if (length <= limit) return undefined;
  logger().warn({ length, limit }, 'refused a batch over maxBatchLength');
  return new InvalidRequestError(`Batch too large: ${length} messages, at most ${limit} are accepted per batch`);
}

/**
 * Serves each message of an admitted batch side by side: `serve` those its era lets travel in a
 * batch, `unserved` answers the others as invalid. The answers, or undefined when there is none.
 */
export async function serveBatch(
  messages: unknown[],
  known: EraName | undefined,
  serve: (frame: Frame) => Promise<JsonRpcResponse | undefined>,
  unserved: (frame: Frame, response: JsonRpcResponse) => Promise<JsonRpcResponse>,
): Promise<JsonRpcResponse[] | undefined> {
  const answers = await Promise.all(
    messages.map((message) => {
      const frame = classify(message, known, true);
      const era = ERAS[frame.era];
      const why = era.batchable(frame);
      return why === undefined ? serve(frame) : unserved(frame, errorAnswer(frame.id, new InvalidRequestError(why), era.errorObject));
    }),
  );
  const responses = answers.filter((answer): answer is JsonRpcResponse => answer !== undefined);
  return responses.length > 0 ? responses : undefined;
}
