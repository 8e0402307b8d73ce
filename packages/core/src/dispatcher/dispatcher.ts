import type { JsonRpcResponse } from '../protocol/json-rpc';
import type { Frame, MessageBody } from '../wire/frame';
import type { ReceiveOptions } from '../eras/era';
import type { AppModel } from './app-model';
import type { TransportInfo } from '../model/transport-info';
import { servingChannel, type Channel, type HandleAnswer } from './channel';
import { handleMessage } from './handle-message';
import { RequestScope } from './request-scope';

/**
 * The one way in for every transport: `handle(body, channel, options)` serves a message on the
 * channel it arrived on and resolves to what to send back. A request is refused, tracked, run
 * with its context and answered exactly once (with its request line and trace), whatever its
 * era; notifications cancel or report progress; responses settle what the server asked. A
 * transport reads bytes into a body once (`readBody`, or `parseMessage` and `classify`) and
 * writes back what `handle` resolves to; it never serves a message itself. Built once per app.
 *
 * @example
 * const connection = app.connect({ kind: 'websocket' });
 * const read = readBody(text);
 * const answer = read.ok ? await app.dispatcher.handle(read.body, connection, { send }) : read.response;
 */
export class Dispatcher {
  /** @internal Each app builds its own (`app.dispatcher`). */
  constructor(private readonly app: AppModel) {}

  /**
   * The answer to one message (a classified frame, or a batch whose elements are classified
   * here), or undefined when none is to be sent (a notification, a cancelled request).
   */
  handle(body: Frame, channel: Channel, options?: ReceiveOptions): Promise<JsonRpcResponse | undefined>;
  handle(body: MessageBody, channel: Channel, options?: ReceiveOptions): Promise<HandleAnswer>;
  handle(body: MessageBody, channel: Channel, options?: ReceiveOptions): Promise<HandleAnswer> {
    return handleMessage(body, servingChannel(channel), options);
  }

  /**
   * A channel for one request that belongs to no session (stateless HTTP): nothing is kept
   * before or after it, and its `close()` (its client left) cancels it.
   */
  channel(transport: TransportInfo): Channel {
    return new RequestScope(this.app, transport);
  }
}
