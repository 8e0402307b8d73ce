import { principalOf } from '../../auth/principal';
import { errorAnswer } from '../../errors/error-answer';
import { InternalError, McpError, MethodNotFoundError } from '../../errors/mcp-error';
import type { JsonRpcResponse } from '../../protocol/json-rpc';
import type { RequestFrame } from '../../wire/frame';
import type { MethodHandler } from '../../dispatcher/method-handler';
import { runRequest } from '../../dispatcher/run-request';
import { requestChannel, traceAnswered, traceLasting } from '../../dispatcher/diagnostics-channels';
import { logAnswered, logWhenEnded } from '../../dispatcher/request-line';
import { monotonicMs } from '../../logging/monotonic-ms';
import { loggedRefusal } from '../logged-refusal';
import type { Era, EraHost, ReceiveOptions } from '../era';
import { modernErrorObject } from './error-object';
import { listen } from './listen';
import { META, SERVER_DISCOVER, SUBSCRIPTIONS_LISTEN } from './meta';
import { ModernLink } from './modern-link';
import { readModernRequest, type ModernRequest } from './read-request';
import { discoverResult, shapeModernResult } from './results';

/**
 * What is answered here, without a handler: its request line (`ms` since `started`, the start of
 * the work it took), and published on `mcpkit:request` too.
 */
function answered(frame: RequestFrame, host: EraHost, options: ReceiveOptions, response: JsonRpcResponse, started = monotonicMs()): Promise<JsonRpcResponse> {
  const transport = options.transport ?? host.transport;
  let logBindings = options.logBindings;
  if (requestChannel.hasSubscribers) {
    const version = frame.meta?.[META.PROTOCOL_VERSION];
    const { method } = frame;
    const known = method === SERVER_DISCOVER || method === SUBSCRIPTIONS_LISTEN || host.app.methods.has(method);
    const added: Record<string, unknown> = {};
    traceAnswered(frame, typeof version === 'string' ? version : '', undefined, transport, response, known, added);
    logBindings = { ...logBindings, ...added };
  }
  logAnswered(options.logger ?? host.logger, frame, transport, logBindings, response, started);
  return Promise.resolve(response);
}

function answer(frame: RequestFrame, host: EraHost, options: ReceiveOptions, error: unknown, started?: number): Promise<JsonRpcResponse> {
  return answered(frame, host, options, errorAnswer(frame.id, error, modernErrorObject), started);
}

/**
 * The stateless era (2026-07-28): each request carries its version and client in `_meta`, so it
 * is served with nothing kept between requests; questions to the client travel as input-required
 * rounds.
 */
export const modernEra: Era = {
  name: 'modern',

  sessions: false,

  errorObject: modernErrorObject,

  batchable(): string | undefined {
    return undefined;
  },

  serve(frame: RequestFrame, host: EraHost, options: ReceiveOptions): Promise<JsonRpcResponse | undefined> {
    const { id, method, params } = frame;
    const { app } = host;
    let request: ModernRequest;
    // Taken only for what is checked at length here (a retry's state and answers): the rest is refused at once.
    let started: number | undefined;
    try {
      request = readModernRequest(method, frame.meta);
      // MRTR retries: the answers of earlier rounds travel in the signed requestState, bounded
      // (size, depth) before anything recursive reads them.
      if (params.requestState !== undefined || params.inputResponses !== undefined) {
        started = monotonicMs();
        const principal = principalOf((options.transport ?? host.transport).auth);
        const retry = app.settings.requestState.answersOf(params as Record<string, unknown>, method, String(frame.target ?? ''), principal);
        request.answers = retry.answers;
        request.exchange = retry.exchange;
      }
    } catch (error) {
      return answer(frame, host, options, error, started);
    }
    if (method === SERVER_DISCOVER) {
      const began = monotonicMs();
      return answered(
        frame,
        host,
        options,
        {
          jsonrpc: '2.0',
          id,
          result: shapeModernResult(discoverResult(host.capabilities, app.instructions), app.infoMeta, app.settings.cacheHints.get(method)),
        },
        began,
      );
    }
    // readModernRequest already answered the methods this era removed.
    const handler = app.methods.get(method);
    if (!handler && method !== SUBSCRIPTIONS_LISTEN) return answer(frame, host, options, new MethodNotFoundError(method));
    const refused = host.refusal(id, modernEra);
    if (refused) return loggedRefusal(refused, frame, host, options);
    const link = new ModernLink(request, app, host);
    if (method === SUBSCRIPTIONS_LISTEN) {
      // Its request line is written when it ends: how long it lasted, and how (the client
      // cancelling is how a listen ends).
      const began = monotonicMs();
      const lasting = !requestChannel.hasSubscribers
        ? listen(frame, host, options, link)
        : traceLasting(frame, request.client.protocolVersion, options.transport ?? host.transport, () => listen(frame, host, options, link));
      return logWhenEnded(lasting, frame, options.logger ?? host.logger, options.transport ?? host.transport, options.logBindings, began);
    }
    if (request.exchange !== undefined) return continueExchange(frame, host, options, handler!, link, request.exchange);
    return runRequest(modernEra, host, frame, handler!, options, link);
  },
};

/**
 * A later round of an input-required exchange: it runs only with its exchange taken (so a round
 * that completes runs once, however often its state is replayed), and frees it again unless it
 * completed (a final result, or cut short after its handler may have acted).
 */
async function continueExchange(
  frame: RequestFrame,
  host: EraHost,
  options: ReceiveOptions,
  handler: MethodHandler,
  link: ModernLink,
  exchange: string,
): Promise<JsonRpcResponse | undefined> {
  const states = host.app.settings.requestState;
  const started = monotonicMs();
  try {
    await states.claim(exchange);
  } catch (error) {
    if (McpError.isMcpError(error)) return answer(frame, host, options, error, started);
    (options.logger ?? host.logger).error({ err: error }, 'request-state store failed: an input-required round was refused');
    return answer(frame, host, options, new InternalError('This input-required exchange cannot be checked now; send the request again shortly'), started);
  }
  const response = await runRequest(modernEra, host, frame, handler, options, link);
  if (response !== undefined && ('error' in response || response.result.resultType === 'input_required')) {
    await states
      .release(exchange)
      .catch((error: unknown) =>
        (options.logger ?? host.logger).warn({ err: error }, 'request-state store failed: an exchange stays taken until its state expires'),
      );
  }
  return response;
}
