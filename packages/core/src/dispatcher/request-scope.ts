import { InvalidRequestError } from '../errors/mcp-error';
import type { Logger } from '../logging/logger';
import type { JsonRpcResponse, RequestId } from '../protocol/json-rpc';
import type { ServerCapabilities } from '../protocol/mcp-types';
import type { Era } from '../eras/era';
import type { AppModel } from './app-model';
import type { SessionControls } from '../model/session-controls';
import type { HandlerContext } from './handler-context';
import type { TransportInfo } from '../model/transport-info';
import type { ServingChannel } from './channel';

function noSession(): never {
  throw new InvalidRequestError('This request belongs to no session, so it has no session state to change');
}

// Only legacy-era methods change a session, and a stateless dispatch serves none of them.
const NO_SESSION: SessionControls = Object.freeze({
  get logLevel() {
    return undefined;
  },
  setLogLevel: noSession,
  subscribe: noSession,
});

/**
 * The channel of one request that belongs to no session (stateless HTTP): nothing kept before
 * it or after it, no outbound sink beyond the request's stream, and its client leaving cancels
 * it. The only per-request object such a request needs besides its context.
 */
export class RequestScope implements ServingChannel {
  private running: HandlerContext | undefined = undefined;
  private closed = false;
  private ownLogger: Logger | undefined = undefined;
  readonly outboundChannel = undefined;
  readonly controls = NO_SESSION;
  readonly keepsSessions = false;
  readonly sessionState = undefined;

  constructor(
    readonly app: AppModel,
    readonly transport: TransportInfo,
  ) {}

  get capabilities(): Readonly<ServerCapabilities> {
    return this.app.capabilities;
  }

  /** Made only when a line is written without the caller's logger. */
  get logger(): Logger {
    this.ownLogger ??= this.app.logger.child({ transport: this.transport.kind });
    return this.ownLogger;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  refusal(_id: RequestId, _era: Era): Promise<JsonRpcResponse | undefined> | undefined {
    // Its one request has no neighbours to collide with; a client already gone gets nothing.
    return this.closed ? Promise.resolve(undefined) : undefined;
  }

  track(_id: RequestId, ctx: HandlerContext): () => void {
    this.running = ctx;
    return () => {
      if (this.running === ctx) this.running = undefined;
    };
  }

  cancel(): boolean {
    // Its one request is cancelled by its client leaving (close), not by a message.
    return false;
  }

  settle(): boolean {
    // It asked its client nothing that a response could answer.
    return false;
  }

  progress(): boolean {
    return false;
  }

  notified(): void {
    // No session: nothing is kept that a notification could change.
  }

  batchRefusal(): string {
    return 'A request that belongs to no session cannot travel in a batch';
  }

  unplaced(): void {
    // Nothing of this scope spans instances: what it cannot place goes nowhere.
  }

  notify(): void {
    // No channel outside the request's own stream: whatever is not related to it has nowhere to go.
  }

  /** The client is gone: the request stops, and nobody is answered. */
  close(): void {
    this.closed = true;
    this.running?.cancel(new Error('connection closed'));
  }
}
