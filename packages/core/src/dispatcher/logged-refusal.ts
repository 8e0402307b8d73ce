import { logAnswered } from './request-line';
import { monotonicMs } from '../logging/monotonic-ms';
import type { JsonRpcResponse } from '../protocol/json-rpc';
import type { RequestFrame } from '../wire/frame';
import type { EraHost, ReceiveOptions } from '../eras/era';

/**
 * A request its host refuses to start (its id is in flight, the connection closed), with its
 * request line once the refusal is known: an error, or nothing to answer (`cancelled`).
 */
export function loggedRefusal(
  refusal: Promise<JsonRpcResponse | undefined>,
  frame: RequestFrame,
  host: EraHost,
  options: ReceiveOptions,
): Promise<JsonRpcResponse | undefined> {
  const started = monotonicMs();
  return refusal.then((response) => {
    logAnswered(options.logger ?? host.logger, frame, options.transport ?? host.transport, options.logBindings, response, started);
    return response;
  });
}
