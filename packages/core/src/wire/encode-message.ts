import { ErrorCode } from '../errors/error-codes';
import type { Logger } from '../logging/logger';
import type { JsonRpcMessage, JsonRpcResponse, RequestId } from '../protocol/json-rpc';

/** Byte bounds on what a transport writes. */
export interface EncodeLimits {
  /** Largest single message, in UTF-8 bytes. */
  maxMessageBytes: number;
  /** Largest answer to a batch, all its elements together, in UTF-8 bytes. */
  maxBatchBytes: number;
}

/** Defaults of the outbound bounds: big enough for a large resource, far below V8's string limit. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** What goes out on a transport: one message or a batch answer. */
export type Outgoing = JsonRpcMessage | readonly JsonRpcMessage[];

/**
 * Serialises what a transport is about to write, and never throws. A response that cannot be
 * serialised (a cycle, a BigInt, a string past V8's limit) or is over `maxMessageBytes` becomes a
 * `-32603` answer for its id; in a batch answer, the elements past `maxBatchBytes` do, so every
 * request still ends exactly once. A notification or server request that cannot go out gives
 * `undefined` (nothing to write). Ids kept as `ExactNumberId` go out with the client's digits.
 *
 * @example
 * const text = encodeMessage(answer, { maxMessageBytes: 64 << 20, maxBatchBytes: 4 << 20 }, logger);
 * if (text !== undefined) stream.write(text + '\n');
 */
export function encodeMessage(message: Outgoing, limits: EncodeLimits, logger?: Logger): string | undefined {
  if (!Array.isArray(message)) return encodeOne(message as JsonRpcMessage, limits.maxMessageBytes, logger);
  const parts: string[] = [];
  let total = 2;
  for (const element of message as readonly JsonRpcMessage[]) {
    let part = encodeOne(element, limits.maxMessageBytes, logger);
    if (part === undefined) continue;
    let bytes = Buffer.byteLength(part);
    if (total + bytes + 1 > limits.maxBatchBytes) {
      const failure = replacement(element, `The batch answer would exceed ${limits.maxBatchBytes} bytes; send fewer requests per batch`, logger);
      if (failure === undefined) continue;
      part = failure;
      bytes = Buffer.byteLength(part);
    }
    total += bytes + 1;
    parts.push(part);
  }
  return parts.length === 0 ? undefined : `[${parts.join(',')}]`;
}

// The text `fitAnswer` made of an answer, kept on the answer itself (a symbol: JSON and Object.keys
// skip it; a WeakMap costs more than serialising twice): the transport writes it instead of
// serialising again. `of` names the answer it was made of, so a spread copy carries a stale one in vain.
const ENCODED: unique symbol = Symbol('mcpkit.encoded');
type Encodable = { [ENCODED]?: { readonly of: object; readonly text: string } };

/**
 * The answer a transport will write for `response`, decided before it is logged: the response
 * itself when it serialises within `maxBytes`, else the `-32603` error that replaces it (the drop
 * logged once, here), so that the request line and trace say what the client gets. The text is
 * kept for `encodeMessage`, which then does not serialise it again. `logger` is asked for only
 * when the answer is dropped: a request's own logger is made on first use, and an answer that fits
 * must not pay for one.
 *
 * @example
 * const answer = fitAnswer(response, 64 << 20, () => logger); // 'error' in answer: it was dropped
 */
export function fitAnswer(response: JsonRpcResponse, maxBytes: number, logger?: () => Logger): JsonRpcResponse {
  let text: string | undefined;
  let reason = 'The response could not be serialised';
  let error: unknown;
  try {
    text = stringify(response);
    if (oversize(text, maxBytes)) {
      text = undefined;
      reason = `The response would exceed ${maxBytes} bytes`;
    }
  } catch (thrown) {
    error = thrown;
  }
  if (text !== undefined) {
    (response as Encodable)[ENCODED] = { of: response, text };
    return response;
  }
  logger?.().error({ err: error, rpcId: response.id }, `dropped an outgoing message: ${reason}`);
  return { jsonrpc: '2.0', id: response.id ?? null, error: { code: ErrorCode.InternalError, message: reason } } as JsonRpcResponse;
}

/** A UTF-8 byte is at least one UTF-16 unit and at most three: count bytes only when it matters. */
function oversize(text: string, maxBytes: number): boolean {
  return text.length > maxBytes || (text.length * 3 > maxBytes && Buffer.byteLength(text) > maxBytes);
}

function encodeOne(message: JsonRpcMessage, maxBytes: number, logger: Logger | undefined): string | undefined {
  const known = (message as Encodable)[ENCODED];
  if (known !== undefined && known.of === message && !oversize(known.text, maxBytes)) return known.text;
  let text: string;
  try {
    text = stringify(message);
  } catch (error) {
    return replacement(message, 'The response could not be serialised', logger, error);
  }
  if (oversize(text, maxBytes)) {
    return replacement(message, `The response would exceed ${maxBytes} bytes`, logger);
  }
  return text;
}

function stringify(message: JsonRpcMessage): string {
  const id = (message as { id?: RequestId | null }).id;
  if (typeof id !== 'object' || id === null) return JSON.stringify(message);
  // An exact id is written as the raw number literal, which JSON.stringify cannot emit.
  const { id: _id, ...rest } = message as { id: RequestId };
  const body = JSON.stringify(rest);
  return body.length > 2 ? `{"id":${id.digits},${body.slice(1)}` : `{"id":${id.digits}}`;
}

function replacement(message: JsonRpcMessage, reason: string, logger: Logger | undefined, error?: unknown): string | undefined {
  const record = message as { id?: RequestId | null; method?: unknown };
  const isResponse = record.method === undefined && record.id !== undefined;
  logger?.error({ err: error, rpcId: record.id, method: record.method }, `dropped an outgoing message: ${reason}`);
  if (!isResponse) return undefined;
  return stringify({ jsonrpc: '2.0', id: record.id ?? null, error: { code: ErrorCode.InternalError, message: reason } });
}
