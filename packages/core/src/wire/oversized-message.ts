import { errorAnswer } from '../errors/error-answer';
import { InvalidRequestError } from '../errors/mcp-error';
import type { JsonRpcFailure } from '../protocol/json-rpc';

/**
 * The answer to a frame over a transport's size limit (a stdio line past `maxMessageBytes`):
 * `-32600` with id null, since nothing of the message was read. Core's, like `parseMessage`'s
 * `-32700`, so a transport never makes a wire error of its own.
 *
 * @example
 * if (line.length > limit) write(encodeMessage(oversizedMessage(limit), limits));
 */
export function oversizedMessage(maxBytes: number): JsonRpcFailure {
  return errorAnswer(null, new InvalidRequestError(`Message exceeds the maximum size of ${maxBytes} bytes`));
}
