import { InternalError, McpError } from '../errors/mcp-error';
import { errorAnswer } from '../errors/error-answer';
import { isDeliberateError } from '../errors/to-json-rpc-error';
import { isLevelEnabled } from '../logging/logger';
import type { JsonRpcResponse } from '../protocol/json-rpc';
import { METHOD } from '../protocol/methods';
import type { RequestFrame } from '../wire/frame';
import type { Era, ReceiveOptions, RunPlan } from '../eras/era';
import type { RequestHost } from './request-host';
import type { CapabilityMap } from '../scanner/definitions';
import type { MethodHandler } from './method-handler';
import { HandlerContext } from './handler-context';
import { endTrace, requestChannel, requestTrace, type RequestTrace } from './diagnostics-channels';
import { answerOutcome } from './outcome';
import { requestBindings, writeRequestLine } from './request-line';
import { monotonicMs } from '../logging/monotonic-ms';
import { fitAnswer } from '../wire/encode-message';

/**
 * Runs one request's handler, by the rules of its `era`, where `host` keeps it (a connection's in-flight table, or a
 * stateless request's own scope): builds its context, answers exactly once whatever throws
 * where, and writes its request line.
 */
export async function runRequest(
  era: Era,
  host: RequestHost,
  frame: RequestFrame,
  handler: MethodHandler,
  options: ReceiveOptions,
  plan: RunPlan,
): Promise<JsonRpcResponse | undefined> {
  const { id, method, target, meta } = frame;
  const transport = options.transport ?? host.transport;
  // The audit trail: who called, on every line of the request (the credential itself never).
  const bindings = requestBindings(frame, options.logBindings, transport);
  const logger = options.logger ?? host.logger;
  const ctx = new HandlerContext({
    requestId: id,
    method,
    link: plan.link,
    transport,
    meta,
    logger,
    logBindings: bindings,
    send: options.send,
    detach: options.detach,
  });
  // One boolean per request: with nobody listening on `mcpkit:request`, nothing more is built.
  const trace = requestChannel.hasSubscribers
    ? requestTrace(method, target, id, era.name, plan.link.client.protocolVersion, plan.link.session?.id, transport, meta, frame.params, bindings)
    : undefined;
  const release = host.track(id, ctx);
  options.unreachable?.(() => ctx.cancel(new Error('the client left before its answer, and nothing can deliver it later')));
  // Asked per request (a number comparison): the level may change while the server runs.
  const logRequests = isLevelEnabled(logger, 'info');
  const started = logRequests ? monotonicMs() : 0;
  let response: JsonRpcResponse;
  try {
    let result = trace === undefined ? handler(frame.params as Record<string, unknown>, ctx, host.controls) : runTraced(trace, handler, frame, ctx, host);
    if (result instanceof Promise) result = await result;
    response = { jsonrpc: '2.0', id, result: plan.complete(result as Record<string, unknown>, frame, ctx) };
  } catch (error) {
    response = failure(frame, ctx, error, plan, era);
  } finally {
    // Whatever threw where, the id is free again: the request ends here, exactly once.
    ctx.finish();
    release();
  }
  response = asWritten(response, options.maxAnswerBytes, ctx, logRequests || trace !== undefined);
  if (ctx.isCancelled) {
    if (logRequests) writeRequestLine(logger, bindings, started, 'cancelled');
    // Cancelled by the client (notifications/cancelled): no response follows. Cut short by the
    // server (shutting down, the session ended): whoever still listens learns why.
    const said = host.isClosed
      ? errorAnswer(
          id,
          new InternalError('The request was cut short: the server closed this connection (shutting down, or the session ended)'),
          era.errorObject,
        )
      : undefined;
    if (trace !== undefined) {
      trace.cancelled = true;
      trace.outcome = 'cancelled';
      endTrace(trace, said);
    }
    return said;
  }
  if (logRequests) {
    const code = 'error' in response ? response.error.code : undefined;
    writeRequestLine(
      logger,
      host.app.settings.logArguments && method === METHOD.TOOLS_CALL ? { ...bindings, arguments: frame.params.arguments } : bindings,
      started,
      outcomeOf(response, ctx, code),
      code,
    );
  }
  if (trace !== undefined) {
    trace.outcome = ctx.outcome;
    trace.authorized = ctx.authorized;
    trace.known = namesKnown(host.app.map, method, target);
    endTrace(trace, response);
  }
  return response;
}

/**
 * Whether a request that reached its handler (so its method is implemented) names a registered
 * tool or prompt, where it names one: only then may a metric carry the name.
 */
function namesKnown(map: CapabilityMap, method: string, target: unknown): boolean {
  if (method === METHOD.TOOLS_CALL) return typeof target === 'string' && map.tools.has(target);
  if (method === METHOD.PROMPTS_GET) return typeof target === 'string' && map.prompts.has(target);
  return true;
}

/**
 * Runs the handler as the `start` event of `mcpkit:request`: inside the stores bound to it and,
 * when a subscriber asked, inside its async context, so what the handler starts belongs to the
 * request's span.
 */
function runTraced(trace: RequestTrace, handler: MethodHandler, frame: RequestFrame, ctx: HandlerContext, host: RequestHost): unknown {
  const call = () => handler(frame.params as Record<string, unknown>, ctx, host.controls);
  const result = requestChannel.start.runStores(trace, () => (trace.runWithin === undefined ? call() : trace.runWithin(call)));
  requestChannel.end.publish(trace);
  return result;
}

/** The answer to a request whose handler threw; building it may throw too, and still gives an answer. */
function failure(frame: RequestFrame, ctx: HandlerContext, error: unknown, plan: RunPlan, era: Era): JsonRpcResponse {
  try {
    const own = plan.fail(error, frame, ctx);
    if (own !== undefined) return { jsonrpc: '2.0', id: frame.id, result: own };
    if (!isDeliberateError(error) && !ctx.isCancelled) ctx.logger.error({ err: error }, 'request handler threw');
    return errorAnswer(frame.id, error, era.errorObject);
  } catch (secondary) {
    ctx.logger.error({ err: secondary, cause: error }, 'building the error answer failed');
    // A deliberate wire error (arguments too deep to digest for requestState) keeps its code.
    return errorAnswer(frame.id, McpError.isMcpError(secondary) ? secondary : new InternalError(), era.errorObject);
  }
}

/**
 * The answer as the transport will write it: over its `maxAnswerBytes`, the `-32603` error that
 * replaces it, which the request line and trace then say (whatever outcome the handler recorded).
 */
function asWritten(response: JsonRpcResponse, maxAnswerBytes: number | undefined, ctx: HandlerContext, reported: boolean): JsonRpcResponse {
  // Only a request line or a trace needs the outcome as the client gets it; otherwise the
  // transport's encodeMessage replaces an oversize answer by the same -32603 when it writes it.
  if (!reported || maxAnswerBytes === undefined || ctx.isCancelled) return response;
  const written = fitAnswer(response, maxAnswerBytes, () => ctx.logger);
  if (written !== response) ctx.outcome = undefined;
  return written;
}

/**
 * The request line's `outcome`: `ok`, `tool_error`, `rate_limited`, `hidden` (answered as an
 * unknown name), `denied`, `invalid` (`-32602`), or `error <code>` for any other error answer.
 */
function outcomeOf(response: JsonRpcResponse, ctx: HandlerContext, code: number | undefined): string {
  if (ctx.outcome !== undefined) return ctx.outcome;
  return answerOutcome(code, code === undefined && (response as { result: { isError?: boolean } }).result.isError === true);
}
