import { principalOf } from '../../auth/principal';
import { clip } from '../../errors/clip';
import { InvalidRequestError, MethodNotFoundError } from '../../errors/mcp-error';
import { errorAnswer } from '../../errors/error-answer';
import { toJsonRpcError } from '../../errors/to-json-rpc-error';
import type { JsonRpcErrorObject } from '../../protocol/json-rpc';
import { METHOD } from '../../protocol/methods';
import type { Frame, RequestFrame } from '../../wire/frame';
import { monotonicMs } from '../../logging/monotonic-ms';
import type { Admission, Answered, Era, EraHost, ReceiveOptions, Session, SessionHost } from '../era';
import { LEGACY_METHODS } from './methods';
import { HandshakeSession } from './session';

// Methods that need a session to mean anything: stateless HTTP does not offer them.
const SESSION_METHODS: ReadonlySet<string> = new Set([METHOD.LOGGING_SET_LEVEL, METHOD.RESOURCES_SUBSCRIBE, METHOD.RESOURCES_UNSUBSCRIBE]);

/** The session this codec opened on the channel a request runs on (the dispatcher serves its requests only on a channel that holds one). */
function sessionOf(host: EraHost): HandshakeSession {
  return host.sessionState as HandshakeSession;
}

/** An answer of this codec's own, with what its request line and trace say. */
function answered(frame: RequestFrame, host: EraHost, session: HandshakeSession, answer: Answered['answer'], started: number): Answered {
  const { method } = frame;
  return {
    answer,
    started,
    version: session.clientInfo.protocolVersion,
    sessionId: session.session.id,
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

  openSession(host: SessionHost): Session {
    return new HandshakeSession(host);
  },

  errorObject(error: unknown): JsonRpcErrorObject {
    return toJsonRpcError(error);
  },

  batchable(frame: Frame): string | undefined {
    return frame.kind === 'request' && frame.method === METHOD.INITIALIZE ? 'initialize must not be part of a batch' : undefined;
  },

  admit(frame: RequestFrame, host: EraHost, options: ReceiveOptions): Admission {
    const session = sessionOf(host);
    const { id, method } = frame;
    if (method === METHOD.INITIALIZE) {
      const started = monotonicMs();
      const answer = session.initialize(id, frame.params, principalOf((options.transport ?? host.transport).auth) === undefined);
      // A session the transport cannot keep is refused after all: the line says what was answered.
      const { openSession } = options;
      return answered(frame, host, session, openSession === undefined || !('result' in answer) ? answer : openSession(answer), started);
    }
    // Lifecycle: before initialize a client may only ping.
    if (!session.isInitialized && method !== METHOD.PING) {
      return answered(
        frame,
        host,
        session,
        errorAnswer(id, new InvalidRequestError(`Received ${clip(method)} before initialize; send initialize first`)),
        monotonicMs(),
      );
    }
    if (session.sessionless && SESSION_METHODS.has(method))
      return answered(frame, host, session, errorAnswer(id, new MethodNotFoundError(method)), monotonicMs());
    return session.link;
  },
};
