import type { JsonRpcFailure } from '../protocol/json-rpc';
import { parseMessage } from '../wire/parse-message';
import type { EraName, MessageBody } from '../wire/frame';
import { classify } from '../eras/classify';

/** One message's text read at the transport edge: the body `dispatcher.handle` takes, or the `-32700` that answers it. */
export type ReadBody = { readonly ok: true; readonly body: MessageBody } | { readonly ok: false; readonly response: JsonRpcFailure };

/**
 * Reads one message's text as `dispatcher.handle` takes it: parsed, and classified once (a
 * batch's elements are classified when it is served); `era` is the era the transport already
 * recognised. Anything that is not JSON is answered `-32700`.
 *
 * @example
 * const read = readBody(line);
 * const answer = read.ok ? await app.dispatcher.handle(read.body, channel, { send }) : read.response;
 */
export function readBody(text: string, era?: EraName): ReadBody {
  const parsed = parseMessage(text);
  if (!parsed.ok) return parsed;
  const { message } = parsed;
  return { ok: true, body: Array.isArray(message) ? message : classify(message, era) };
}
