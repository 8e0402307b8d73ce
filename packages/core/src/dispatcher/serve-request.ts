import { errorAnswer } from '../errors/error-answer';
import { InternalError, McpError, MethodNotFoundError } from '../errors/mcp-error';
import { monotonicMs } from '../logging/monotonic-ms';
import type { JsonRpcResponse } from '../protocol/json-rpc';
import type { RequestFrame } from '../wire/frame';
import type { Answered, Era, EraHost, ReceiveOptions, RunPlan } from '../eras/era';
import type { MethodHandler } from './method-handler';
import { requestChannel, traceAnswered, traceLasting } from './diagnostics-channels';
import { logAnswered, logWhenEnded } from './request-line';
import { lastingAccess } from './lasting-access';
import { loggedRefusal } from './logged-refusal';
import { runRequest } from './run-request';
import type { RequestHost } from './request-host';

/**
 * Serves one request of `era` on `host`: its codec reads it and answers it or says how to run it;
 * then the request is refused (its id in flight, no room, the client gone), served by its era
 * (a listen), or its method's handler runs. Answers exactly once, with its request line.
 */
export function serveRequest(era: Era, frame: RequestFrame, host: RequestHost, options: ReceiveOptions): Promise<JsonRpcResponse | undefined> {
  const admission = era.admit(frame, host, options);
  if ('answer' in admission) return answered(frame, host, options, admission);
  const { lasting } = admission;
  // A method of another era is not found here, whatever the app's table has (the era's registry);
  // an extension's methods are on every era.
  const known = era.methods.has(frame.method) || host.app.settings.extensions.methods.has(frame.method);
  const handler = lasting === undefined && known ? host.app.methods.get(frame.method) : undefined;
  if (lasting === undefined && handler === undefined) return notFound(era, frame, host, options, admission);
  const refused = host.refusal(frame.id, era);
  if (refused !== undefined) return loggedRefusal(refused, frame, host, options);
  if (lasting !== undefined) return serveLasting(lasting, frame, host, options, admission);
  if (admission.exchange !== undefined) return continueExchange(era, frame, host, options, handler!, admission, admission.exchange);
  return runRequest(era, host, frame, handler!, options, admission);
}

/** What a codec answered itself, with its request line, and published on `mcpkit:request` too. */
function answered(frame: RequestFrame, host: EraHost, options: ReceiveOptions, own: Answered): Promise<JsonRpcResponse> {
  const { answer } = own;
  return answer instanceof Promise
    ? answer.then((response) => logged(frame, host, options, own, response))
    : Promise.resolve(logged(frame, host, options, own, answer));
}

function logged(frame: RequestFrame, host: EraHost, options: ReceiveOptions, own: Answered, response: JsonRpcResponse): JsonRpcResponse {
  const transport = options.transport ?? host.transport;
  let logBindings = options.logBindings;
  if (requestChannel.hasSubscribers) {
    const added: Record<string, unknown> = {};
    traceAnswered(frame, own.version, own.sessionId, transport, response, own.known, added);
    logBindings = { ...logBindings, ...added };
  }
  logAnswered(options.logger ?? host.logger, frame, transport, logBindings, response, own.started);
  return response;
}

/** A method nothing here answers: `-32601` in the era's terms. */
function notFound(era: Era, frame: RequestFrame, host: EraHost, options: ReceiveOptions, plan: RunPlan): Promise<JsonRpcResponse> {
  const { client, session } = plan.link;
  const answer = errorAnswer(frame.id, new MethodNotFoundError(frame.method), era.errorObject);
  return answered(frame, host, options, { answer, started: monotonicMs(), version: client.protocolVersion, sessionId: session?.id, known: false });
}

/**
 * A request that lasts (a listen): its request line is written when it ends, how long it
 * lasted and how (the client cancelling is how a listen ends).
 */
function serveLasting(
  lasting: NonNullable<RunPlan['lasting']>,
  frame: RequestFrame,
  host: RequestHost,
  options: ReceiveOptions,
  plan: RunPlan,
): Promise<JsonRpcResponse | undefined> {
  const began = monotonicMs();
  const transport = options.transport ?? host.transport;
  const access = lastingAccess(host, options);
  const served = !requestChannel.hasSubscribers
    ? lasting(frame, host, options, access)
    : traceLasting(frame, plan.link.client.protocolVersion, transport, () => lasting(frame, host, options, access));
  return logWhenEnded(served, frame, options.logger ?? host.logger, transport, options.logBindings, began);
}

/**
 * A later round of an input-required exchange: it runs only with its exchange taken (so a round
 * that completes runs once, however often its state is replayed), and frees it again unless it
 * completed (a final result, or cut short after its handler may have acted).
 */
async function continueExchange(
  era: Era,
  frame: RequestFrame,
  host: RequestHost,
  options: ReceiveOptions,
  handler: MethodHandler,
  plan: RunPlan,
  exchange: string,
): Promise<JsonRpcResponse | undefined> {
  const states = host.app.settings.requestState;
  const started = monotonicMs();
  const refuse = (error: unknown): Promise<JsonRpcResponse> => {
    const { client, session } = plan.link;
    const answer = errorAnswer(frame.id, error, era.errorObject);
    return answered(frame, host, options, { answer, started, version: client.protocolVersion, sessionId: session?.id, known: true });
  };
  try {
    await states.claim(exchange);
  } catch (error) {
    if (McpError.isMcpError(error)) return refuse(error);
    (options.logger ?? host.logger).error({ err: error }, 'request-state store failed: an input-required round was refused');
    return refuse(new InternalError('This input-required exchange cannot be checked now; send the request again shortly'));
  }
  const response = await runRequest(era, host, frame, handler, options, plan);
  if (response !== undefined && ('error' in response || response.result.resultType === 'input_required')) {
    await states
      .release(exchange)
      .catch((error: unknown) =>
        (options.logger ?? host.logger).warn({ err: error }, 'request-state store failed: an exchange stays taken until its state expires'),
      );
  }
  return response;
}
