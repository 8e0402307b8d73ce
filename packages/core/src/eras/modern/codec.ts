import { principalOf } from '../../auth/principal';
import { errorAnswer } from '../../errors/error-answer';
import { MethodNotFoundError } from '../../errors/mcp-error';
import type { JsonRpcResponse } from '../../protocol/json-rpc';
import type { RequestFrame } from '../../wire/frame';
import { runRequest } from '../../dispatcher/run-request';
import { requestChannel, traceAnswered, traceLasting } from '../../dispatcher/diagnostics-channels';
import type { Era, EraHost, ReceiveOptions } from '../era';
import { modernErrorObject } from './error-object';
import { listen } from './listen';
import { META, SERVER_DISCOVER, SUBSCRIPTIONS_LISTEN } from './meta';
import { ModernLink } from './modern-link';
import { readModernRequest, type ModernRequest } from './read-request';
import { discoverResult, shapeModernResult } from './results';

/** What is answered here, without a handler; published on `mcpkit:request` too. */
function answered(frame: RequestFrame, host: EraHost, options: ReceiveOptions, response: JsonRpcResponse): Promise<JsonRpcResponse> {
  if (!requestChannel.hasSubscribers) return Promise.resolve(response);
  const version = frame.meta?.[META.PROTOCOL_VERSION];
  const { method } = frame;
  const known = method === SERVER_DISCOVER || method === SUBSCRIPTIONS_LISTEN || host.app.methods.has(method);
  return Promise.resolve(traceAnswered(frame, typeof version === 'string' ? version : '', undefined, options.transport ?? host.transport, response, known));
}

function answer(frame: RequestFrame, host: EraHost, options: ReceiveOptions, error: unknown): Promise<JsonRpcResponse> {
  return answered(frame, host, options, errorAnswer(frame.id, error, modernErrorObject));
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
    try {
      request = readModernRequest(method, frame.meta);
      // MRTR retries: the answers of earlier rounds travel in the signed requestState, bounded
      // (size, depth) before anything recursive reads them.
      if (params.requestState !== undefined || params.inputResponses !== undefined) {
        const principal = principalOf((options.transport ?? host.transport).auth);
        request.answers = app.settings.requestState.answersOf(params as Record<string, unknown>, method, String(frame.target ?? ''), principal);
      }
    } catch (error) {
      return answer(frame, host, options, error);
    }
    if (method === SERVER_DISCOVER) {
      return answered(frame, host, options, {
        jsonrpc: '2.0',
        id,
        result: shapeModernResult(discoverResult(host.capabilities, app.instructions), app.infoMeta, app.settings.cacheHints.get(method)),
      });
    }
    // readModernRequest already answered the methods this era removed.
    const handler = app.methods.get(method);
    if (!handler && method !== SUBSCRIPTIONS_LISTEN) return answer(frame, host, options, new MethodNotFoundError(method));
    const refused = host.refusal(id, modernEra);
    if (refused) return refused;
    const link = new ModernLink(request, app, host);
    if (method === SUBSCRIPTIONS_LISTEN) {
      if (!requestChannel.hasSubscribers) return listen(frame, host, options, link);
      return traceLasting(frame, request.client.protocolVersion, options.transport ?? host.transport, () => listen(frame, host, options, link));
    }
    return runRequest(modernEra, host, frame, handler!, options, link);
  },
};
