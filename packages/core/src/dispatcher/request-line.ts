import { CLIP_LENGTH, clip } from '../errors/clip';
import { isLevelEnabled, type Logger } from '../logging/logger';
import { requestLine } from '../logging/fast-line';
import { monotonicMs } from '../logging/monotonic-ms';
import type { JsonRpcResponse } from '../protocol/json-rpc';
import type { Frame } from '../wire/frame';
import { answerOutcome } from './outcome';
import type { TransportInfo } from '../model/transport-info';
import { traceIdOf } from './trace-context';

/** What a request line says of the request itself. */
export type LineFrame = Pick<Frame, 'method' | 'target' | 'meta'> & { readonly id: NonNullable<Frame['id']> };

/**
 * The fields of a request's log lines: its id (a long string id clipped), method and target,
 * the transport's own fields (`logBindings`), who called (`subject`, `clientId`; the credential
 * itself never) and the caller's trace id, so its lines can be found from its trace.
 */
export function requestBindings(
  frame: LineFrame,
  logBindings: Readonly<Record<string, unknown>> | undefined,
  transport: TransportInfo | undefined,
): Record<string, unknown> {
  const { id, method, target, meta } = frame;
  // A string id is the client's text: logged, like a name, to CLIP_LENGTH characters.
  const rpcId = typeof id === 'string' && id.length > CLIP_LENGTH ? clip(id) : id;
  const bindings: Record<string, unknown> = target === undefined ? { rpcId, method } : { rpcId, method, target: clip(target) };
  if (logBindings !== undefined) Object.assign(bindings, logBindings);
  const auth = transport?.auth;
  if (auth !== undefined) {
    bindings.subject = auth.subject;
    if (auth.clientId !== undefined) bindings.clientId = auth.clientId;
  }
  const traceparent = meta?.traceparent ?? transport?.headers?.traceparent;
  if (traceparent !== undefined) {
    const traceId = traceIdOf(traceparent);
    if (traceId !== undefined) bindings.traceId = traceId;
  }
  return bindings;
}

/** Writes the request line (`msg: "request"`, at info): its fields, `ms` since `started`, `outcome`, and the JSON-RPC `code` of an error answer. */
export function writeRequestLine(logger: Logger, bindings: Record<string, unknown>, started: number, outcome: string, code?: number): void {
  requestLine(logger, bindings, Math.round((monotonicMs() - started) * 1000) / 1000, outcome, code);
}

/**
 * The request line of a request answered without running its handler (`initialize`,
 * `server/discover`, `subscriptions/listen` once it ends, an unknown method, a refusal before
 * dispatch: invalid params, a bad `requestState`, an id in use, an HTTP check): the same fields
 * as a handled request's, so every request has exactly one. `response` undefined: nothing was
 * answered (`cancelled`). Costs one level check when info is off.
 */
export function logAnswered(
  logger: Logger,
  frame: LineFrame,
  transport: TransportInfo | undefined,
  logBindings: Readonly<Record<string, unknown>> | undefined,
  response: JsonRpcResponse | undefined,
  started: number,
  outcome?: string,
): void {
  if (!isLevelEnabled(logger, 'info')) return;
  const code = response !== undefined && 'error' in response ? response.error.code : undefined;
  const isError = response !== undefined && 'result' in response && response.result.isError === true;
  writeRequestLine(
    logger,
    requestBindings(frame, logBindings, transport),
    started,
    outcome ?? (response === undefined ? 'cancelled' : answerOutcome(code, isError)),
    code,
  );
}

/**
 * Writes the request line of a request that lasts (a listen) when it ends. It keeps only what the
 * line says (the id, method, target and trace parent), not the frame: a listen may stay open for
 * hours, and its params and `_meta` could hold a whole request body.
 */
export function logWhenEnded<R extends JsonRpcResponse | undefined>(
  lasting: Promise<R>,
  frame: LineFrame,
  logger: Logger,
  transport: TransportInfo | undefined,
  logBindings: Readonly<Record<string, unknown>> | undefined,
  started: number,
): Promise<R> {
  const traceparent = frame.meta?.traceparent;
  const line: LineFrame = { id: frame.id, method: frame.method, target: frame.target, meta: traceparent === undefined ? undefined : { traceparent } };
  return lasting.then((response) => {
    logAnswered(logger, line, transport, logBindings, response, started);
    return response;
  });
}

/**
 * A message answered before any era served it (malformed, not allowed in a batch, of an era the
 * caller cannot serve): its request line when its id could be read, and the answer.
 */
export function answeredUnserved(
  logger: Logger,
  frame: Frame,
  transport: TransportInfo | undefined,
  logBindings: Readonly<Record<string, unknown>> | undefined,
  response: JsonRpcResponse,
): Promise<JsonRpcResponse> {
  const { id } = frame;
  if (id !== null) logAnswered(logger, { method: frame.method, target: frame.target, meta: frame.meta, id }, transport, logBindings, response, monotonicMs());
  return Promise.resolve(response);
}
