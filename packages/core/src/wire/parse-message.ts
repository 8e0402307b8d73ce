import { ParseError } from '../errors/mcp-error';
import { errorAnswer } from '../errors/error-answer';
import { hasInexactId, restoreExactIds } from '../protocol/exact-id';
import type { JsonRpcFailure } from '../protocol/json-rpc';

/** A parsed frame, or the `-32700` answer for one that is not JSON. */
export type ParsedFrame = { ok: true; message: unknown } | { ok: false; response: JsonRpcFailure };

/**
 * Parses one transport frame (a stdio line, an HTTP body). Transports that must look at the
 * message before dispatching it (HTTP sessions) use this so the parse error stays core's answer.
 * Numeric ids that a double cannot hold come back as `ExactNumberId`s with the client's digits.
 */
export function parseMessage(text: string): ParsedFrame {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return { ok: false, response: errorAnswer(null, new ParseError()) };
  }
  if (Array.isArray(message) ? message.some(hasInexactId) : hasInexactId(message)) restoreExactIds(text, message);
  return { ok: true, message };
}
