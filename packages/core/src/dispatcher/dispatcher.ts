import { InvalidRequestError } from '../errors/mcp-error';
import { clip } from '../errors/clip';
import { errorAnswer } from '../errors/error-answer';
import type { JsonRpcResponse } from '../protocol/json-rpc';
import type { Frame, RequestFrame } from '../wire/frame';
import type { ReceiveOptions } from '../eras/era';
import { ERAS } from '../eras/eras';
import type { AppModel } from './app-model';
import type { TransportInfo } from '../model/transport-info';
import { RequestScope } from './request-scope';
import { answeredUnserved } from './request-line';
import { serveRequest } from './serve-request';

/** Who sends a message that belongs to no connection, and how to reach them while it runs. */
export interface Caller extends ReceiveOptions {
  readonly transport: TransportInfo;
  /**
   * Registers what to do when the caller goes away before its answer (an HTTP client that
   * closed): the request is cancelled and nothing is answered. Absent where that cannot happen.
   */
  readonly onClose?: (listener: () => void) => void;
}

/**
 * Serves messages that need no session: each modern-era request (2026-07-28) carries
 * everything it needs, so it runs with nothing built but its context and a scope its client's
 * leaving can cancel. Built once per app; connections serve the legacy era.
 *
 * @example
 * const answer = await app.dispatcher.handle(classify(message), { transport: { kind: 'http', headers } });
 */
export class Dispatcher {
  /** @internal Each app builds its own (`app.dispatcher`). */
  constructor(private readonly app: AppModel) {}

  /** The answer to one frame, or undefined when none is to be sent (a notification, a cancelled request). */
  handle(frame: Frame, caller: Caller): Promise<JsonRpcResponse | undefined> {
    const era = ERAS[frame.era];
    switch (frame.kind) {
      case 'request': {
        if (era.sessions) {
          return answeredUnserved(
            caller.logger ?? this.app.logger,
            frame,
            caller.transport,
            caller.logBindings,
            errorAnswer(frame.id, new InvalidRequestError(`${clip(frame.method)} belongs to a session; open one with initialize`), era.errorObject),
          );
        }
        const scope = new RequestScope(this.app, caller.transport);
        caller.onClose?.(() => scope.close());
        return serveRequest(era, frame as RequestFrame, scope, caller);
      }
      case 'notification':
      case 'response':
        // Nothing of this caller is in flight to cancel, and it was asked nothing to answer.
        return Promise.resolve(undefined);
      default:
        return answeredUnserved(
          caller.logger ?? this.app.logger,
          frame,
          caller.transport,
          caller.logBindings,
          errorAnswer(frame.id, frame.problem, era.errorObject),
        );
    }
  }
}
