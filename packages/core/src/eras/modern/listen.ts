import { InvalidRequestError } from '../../errors/mcp-error';
import type { JsonRpcResponse } from '../../protocol/json-rpc';
import { METHOD } from '../../protocol/methods';
import { RequestContext } from '../../dispatcher/request-context';
import type { RequestFrame } from '../../wire/frame';
import type { EraHost, ReceiveOptions } from '../era';
import { honouredFilter } from './listen-filter';
import { SUBSCRIPTION_ID, SUBSCRIPTIONS_ACKNOWLEDGED, SUBSCRIPTIONS_LISTEN } from './meta';
import { modernErrorObject } from './error-object';
import type { ModernLink } from './modern-link';

/**
 * `subscriptions/listen`: acknowledges the filter it honours, then relays the matching app
 * events, each tagged with the subscription id, until the client cancels (stdio:
 * notifications/cancelled; HTTP: closing the stream) or the connection closes.
 */
export function listen(frame: RequestFrame, host: EraHost, options: ReceiveOptions, link: ModernLink): Promise<JsonRpcResponse | undefined> {
  const { id } = frame;
  const send = options.send ?? host.outboundChannel;
  if (!send) return Promise.resolve({ jsonrpc: '2.0', id, error: modernErrorObject(new InvalidRequestError('subscriptions/listen needs a stream to deliver on')) });
  const honoured = honouredFilter(frame.params.notifications, host.app.capabilities);
  const tag = { [SUBSCRIPTION_ID]: id };
  const ctx = new RequestContext({
    requestId: id,
    method: SUBSCRIPTIONS_LISTEN,
    link,
    transport: options.transport ?? host.transport,
    meta: undefined,
    logger: options.logger ?? host.logger,
    logBindings: { rpcId: id, method: SUBSCRIPTIONS_LISTEN, ...options.logBindings },
    send,
  });
  const untrack = host.track(id, ctx);
  send({ jsonrpc: '2.0', method: SUBSCRIPTIONS_ACKNOWLEDGED, params: { _meta: tag, notifications: honoured } });
  return new Promise((resolve) => {
    const unsubscribe = host.app.settings.bus.subscribe((event) => {
      if (event.type === 'listChanged') {
        if (honoured[`${event.list}ListChanged`] === true) send({ jsonrpc: '2.0', method: `notifications/${event.list}/list_changed`, params: { _meta: tag } });
      } else if (Array.isArray(honoured.resourceSubscriptions) && honoured.resourceSubscriptions.includes(event.uri)) {
        send({ jsonrpc: '2.0', method: METHOD.RESOURCE_UPDATED, params: { uri: event.uri, _meta: tag } });
      }
    });
    ctx.signal.addEventListener(
      'abort',
      () => {
        unsubscribe();
        untrack();
        resolve(undefined);
      },
      { once: true },
    );
  });
}
