import { principalOf } from '../../auth/principal';
import { clip } from '../../errors/clip';
import { InvalidRequestError, MethodNotFoundError } from '../../errors/mcp-error';
import { errorAnswer } from '../../errors/error-answer';
import { toJsonRpcError } from '../../errors/to-json-rpc-error';
import type { JsonRpcErrorObject, JsonRpcResponse } from '../../protocol/json-rpc';
import { METHOD } from '../../protocol/methods';
import type { Frame, RequestFrame } from '../../wire/frame';
import { runRequest } from '../../dispatcher/run-request';
import { requestChannel, traceAnswered } from '../../dispatcher/diagnostics-channels';
import { logAnswered } from '../../dispatcher/request-line';
import { monotonicMs } from '../../logging/monotonic-ms';
import { loggedRefusal } from '../logged-refusal';
import type { Era, EraHost, ReceiveOptions } from '../era';
import type { HandshakeLink } from './handshake-link';
import type { HandshakeSession } from './session';

// Methods that need a session to mean anything: stateless HTTP does not offer them.
const SESSION_METHODS: ReadonlySet<string> = new Set([METHOD.LOGGING_SET_LEVEL, METHOD.RESOURCES_SUBSCRIBE, METHOD.RESOURCES_UNSUBSCRIBE]);

/** What the handshake codec needs beyond any host: the session and its link. */
export interface HandshakeHost extends EraHost {
  readonly handshake: HandshakeSession;
  /** The link of the session's current client (a new one after `initialize`). */
  readonly handshakeLink: HandshakeLink;
}

/**
 * The handshake era (2024-11-05 … 2025-11-25): `initialize` opens a session, which every later
 * request belongs to; before it, a client may only ping.
 */
export const handshakeEra: Era = {
  name: 'legacy',

  sessions: true,

  errorObject(error: unknown): JsonRpcErrorObject {
    return toJsonRpcError(error);
  },

  batchable(frame: Frame): string | undefined {
    return frame.kind === 'request' && frame.method === METHOD.INITIALIZE ? 'initialize must not be part of a batch' : undefined;
  },

  serve(frame: RequestFrame, host: EraHost, options: ReceiveOptions): Promise<JsonRpcResponse | undefined> {
    const { handshake, handshakeLink } = host as HandshakeHost;
    const { id, method } = frame;
    // What is answered here, without a handler, has its request line, and is published on
    // `mcpkit:request` too.
    const answered = (response: JsonRpcResponse, started: number): Promise<JsonRpcResponse> => {
      const transport = options.transport ?? host.transport;
      let logBindings = options.logBindings;
      if (requestChannel.hasSubscribers) {
        const added: Record<string, unknown> = {};
        const known = method === METHOD.INITIALIZE || host.app.methods.has(method);
        traceAnswered(frame, handshake.clientInfo.protocolVersion, handshakeLink.session.id, transport, response, known, added);
        logBindings = { ...logBindings, ...added };
      }
      logAnswered(options.logger ?? host.logger, frame, transport, logBindings, response, started);
      return Promise.resolve(response);
    };
    if (method === METHOD.INITIALIZE) {
      const started = monotonicMs();
      const answer = handshake.initialize(id, frame.params, principalOf((options.transport ?? host.transport).auth) === undefined);
      // A session the transport cannot keep is refused after all: the line says what was answered.
      const { openSession } = options;
      if (openSession === undefined || !('result' in answer)) return answered(answer, started);
      return openSession(answer).then((kept) => answered(kept, started));
    }
    // Lifecycle: before initialize a client may only ping.
    if (!handshake.isInitialized && method !== METHOD.PING) {
      return answered(errorAnswer(id, new InvalidRequestError(`Received ${clip(method)} before initialize; send initialize first`)), monotonicMs());
    }
    const handler = host.app.methods.get(method);
    if (!handler || (handshake.sessionless && SESSION_METHODS.has(method))) return answered(errorAnswer(id, new MethodNotFoundError(method)), monotonicMs());
    const refused = host.refusal(id, handshakeEra);
    if (refused !== undefined) return loggedRefusal(refused, frame, host, options);
    return runRequest(handshakeEra, host, frame, handler, options, handshakeLink);
  },
};
