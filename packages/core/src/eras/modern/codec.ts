import { principalOf } from '../../auth/principal';
import { errorAnswer } from '../../errors/error-answer';
import type { RequestFrame } from '../../wire/frame';
import { monotonicMs } from '../../logging/monotonic-ms';
import type { Admission, Answered, Era, EraHost, ReceiveOptions, RunPlan } from '../era';
import { modernErrorObject } from './error-object';
import { listen, reopenListen } from './listen';
import { META, SERVER_DISCOVER, SUBSCRIPTIONS_LISTEN } from './meta';
import { MODERN_METHODS } from './methods';
import { ModernLink } from './modern-link';
import { readModernRequest, type ModernRequest } from './read-request';
import { discoverResult, shapeModernResult } from './results';

/** An answer of this codec's own (`ms` of its request line since `started`, the start of the work it took). */
function answered(frame: RequestFrame, host: EraHost, answer: Answered['answer'], started = monotonicMs()): Answered {
  const version = frame.meta?.[META.PROTOCOL_VERSION];
  const { method } = frame;
  return {
    answer,
    started,
    version: typeof version === 'string' ? version : '',
    sessionId: undefined,
    known: method === SERVER_DISCOVER || method === SUBSCRIPTIONS_LISTEN || host.app.methods.has(method),
  };
}

/** A listen's plan: the era serves it itself, for as long as it lasts. */
function listenPlan(link: ModernLink): RunPlan {
  return {
    link,
    exchange: undefined,
    lasting: (frame, host, options, access) => listen(frame, host, options, link, access),
    complete: (result) => result,
    fail: () => undefined,
  };
}

/**
 * The modern era (2026-07-28): each request carries its version and client in `_meta`, so it
 * is served with nothing kept between requests; questions to the client travel as input-required
 * rounds.
 */
export const modernEra: Era = {
  name: 'modern',

  methods: MODERN_METHODS,

  sessions: false,

  reopen: reopenListen,

  errorObject: modernErrorObject,

  batchable(): string | undefined {
    return undefined;
  },

  admit(frame: RequestFrame, host: EraHost, options: ReceiveOptions): Admission {
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
      return answered(frame, host, errorAnswer(id, error, modernErrorObject), started);
    }
    if (method === SERVER_DISCOVER) {
      const began = monotonicMs();
      const result = shapeModernResult(discoverResult(host.capabilities, app.instructions), app.infoMeta, app.settings.cacheHints.get(method));
      return answered(frame, host, { jsonrpc: '2.0', id, result }, began);
    }
    // readModernRequest already answered the methods this era removed.
    const link = new ModernLink(request, app, host);
    return method === SUBSCRIPTIONS_LISTEN ? listenPlan(link) : link;
  },
};
