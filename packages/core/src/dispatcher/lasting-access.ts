import type { LastingAccess, ReceiveOptions } from '../eras/era';
import { mayHear, subscriptionGrant } from './readable-resource';
import { HandlerContext } from './handler-context';
import type { RequestHost } from './request-host';
import { maySeeTask } from './task-access';

/**
 * What a request that lasts (a listen) may ask of the dispatcher on `host`: its context (the
 * transport and logger of `options`), and the app's read rules, read when asked (a dynamic app
 * swaps its pipelines). Made once per such request.
 */
export function lastingAccess(host: RequestHost, options: ReceiveOptions): LastingAccess {
  const { app } = host;
  return {
    context: (frame, link, send) =>
      new HandlerContext({
        requestId: frame.id,
        method: frame.method,
        link,
        transport: options.transport ?? host.transport,
        meta: undefined,
        logger: options.logger ?? host.logger,
        logBindings: { rpcId: frame.id, method: frame.method, ...options.logBindings },
        send,
      }),
    // The dispatcher made each context it is given back.
    grant: (uri, ctx) => subscriptionGrant(app.map, app.pipelines, uri, ctx as HandlerContext),
    hears: (uri, grant) => mayHear(app.map, app.pipelines, uri, grant),
    maySee: (task, ctx) => maySeeTask(app, task, ctx as HandlerContext),
  };
}
