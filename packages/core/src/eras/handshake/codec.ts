import { principalOf } from '../../auth/principal';
import { clip } from '../../errors/clip';
import { InvalidRequestError, MethodNotFoundError } from '../../errors/mcp-error';
import { errorAnswer } from '../../errors/error-answer';
import { toJsonRpcError } from '../../errors/to-json-rpc-error';
import type { JsonRpcErrorObject } from '../../protocol/json-rpc';
import { METHOD } from '../../protocol/methods';
import type { Frame, RequestFrame } from '../../wire/frame';
import { monotonicMs } from '../../logging/monotonic-ms';
import type { Admission, Answered, Era, EraHost, ReceiveOptions } from '../era';
import type { HandshakeLink } from './handshake-link';
import { LEGACY_METHODS } from './methods';
import type { HandshakeSession } from './session';

// Methods that need a session to mean anything: stateless HTTP does not offer them.
const SESSION_METHODS: ReadonlySet<string> = new Set([METHOD.LOGGING_SET_LEVEL, METHOD.RESOURCES_SUBSCRIBE, METHOD.RESOURCES_UNSUBSCRIBE]);

/** What the handshake codec needs beyond any host: the session and its link. */
export interface HandshakeHost extends EraHost {
  readonly handshake: HandshakeSession;
  /** The link of the session's current client (a new one after `initialize`). */
  readonly handshakeLink: HandshakeLink;
}

/** An answer of this codec's own, with what its request line and trace say. */
function answered(frame: RequestFrame, host: HandshakeHost, answer: Answered['answer'], started: number): Answered {
  const { method } = frame;
  return {
    answer,
    started,
    version: host.handshake.clientInfo.protocolVersion,
    sessionId: host.handshakeLink.session.id,
    known: method === METHOD.INITIALIZE || host.app.methods.has(method),
  };
}

/**
 * The legacy era (2024-11-05 … 2025-11-25): `initialize` opens a session, which every later
 * request belongs to; before it, a client may only ping.
 */
export const handshakeEra: Era = {
  name: 'legacy',

  methods: LEGACY_METHODS,

  sessions: true,

  errorObject(error: unknown): JsonRpcErrorObject {
    return toJsonRpcError(error);
  },

  batchable(frame: Frame): string | undefined {
    return frame.kind === 'request' && frame.method === METHOD.INITIALIZE ? 'initialize must not be part of a batch' : undefined;
  },

  admit(frame: RequestFrame, base: EraHost, options: ReceiveOptions): Admission {
    const host = base as HandshakeHost;
    const { handshake } = host;
    const { id, method } = frame;
    if (method === METHOD.INITIALIZE) {
      const started = monotonicMs();
      const answer = handshake.initialize(id, frame.params, principalOf((options.transport ?? host.transport).auth) === undefined);
      // A session the transport cannot keep is refused after all: the line says what was answered.
      const { openSession } = options;
      return answered(frame, host, openSession === undefined || !('result' in answer) ? answer : openSession(answer), started);
    }
    // Lifecycle: before initialize a client may only ping.
    if (!handshake.isInitialized && method !== METHOD.PING) {
      return answered(
        frame,
        host,
        errorAnswer(id, new InvalidRequestError(`Received ${clip(method)} before initialize; send initialize first`)),
        monotonicMs(),
      );
    }
    if (handshake.sessionless && SESSION_METHODS.has(method)) return answered(frame, host, errorAnswer(id, new MethodNotFoundError(method)), monotonicMs());
    return host.handshakeLink;
  },
};
