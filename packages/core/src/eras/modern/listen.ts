import { errorAnswer } from '../../errors/error-answer';
import { InvalidParamsError, InvalidRequestError } from '../../errors/mcp-error';
import { checkUriLength } from '../../model/read-params';
import type { JsonRpcMessage, JsonRpcResponse } from '../../protocol/json-rpc';
import { METHOD } from '../../protocol/methods';
import type { SubscriptionGrant } from '../../model/subscription-grant';
import { LIST_CHANGED, LIST_NAMES } from '../../model/list-changes';
import type { ListenSnapshot } from '../../model/session-snapshot';
import type { RequestFrame } from '../../wire/frame';
import type { ContextFacts } from '../../model/context-facts';
import type { EraApp, EraHost, LastingAccess, ReceiveOptions } from '../era';
import { honouredFilter } from './listen-filter';
import { SUBSCRIPTION_ID, SUBSCRIPTIONS_ACKNOWLEDGED, SUBSCRIPTIONS_LISTEN } from './meta';
import { modernErrorObject } from './error-object';
import { ModernLink } from './modern-link';
import { readModernRequest } from './read-request';
import { modernTasks } from './tasks';

const NO_OPTIONS: ReceiveOptions = Object.freeze({});

/**
 * `subscriptions/listen`: acknowledges the filter it honours, then relays the matching app
 * events, each tagged with the subscription id, until the client cancels (stdio:
 * notifications/cancelled; HTTP: closing the stream) or the connection closes.
 */
export function listen(
  frame: RequestFrame,
  host: EraHost,
  options: ReceiveOptions,
  link: ModernLink,
  access: LastingAccess,
): Promise<JsonRpcResponse | undefined> {
  return openListen(frame, host, options, link, access, true);
}

/**
 * Re-opens a listen of a continued session (`restore`): the client was acknowledged by the
 * process before, so it is not acknowledged again. Throws the error that would have answered
 * the request when its params no longer read as a listen (an unsupported version).
 */
export function reopenListen(open: ListenSnapshot, host: EraHost, access: LastingAccess): void {
  const meta = open.params._meta;
  const frame: RequestFrame = {
    kind: 'request',
    id: open.id,
    method: SUBSCRIPTIONS_LISTEN,
    params: open.params,
    meta: typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? (meta as Record<string, unknown>) : undefined,
    era: 'modern',
    target: undefined,
    response: undefined,
    problem: undefined,
  };
  const link = new ModernLink(readModernRequest(SUBSCRIPTIONS_LISTEN, frame.meta), host.app, host);
  void openListen(frame, host, NO_OPTIONS, link, access, false);
}

async function openListen(
  frame: RequestFrame,
  host: EraHost,
  options: ReceiveOptions,
  link: ModernLink,
  access: LastingAccess,
  acknowledge: boolean,
): Promise<JsonRpcResponse | undefined> {
  const { id } = frame;
  const send = options.send ?? host.outboundChannel;
  if (!send) return errorAnswer(id, new InvalidRequestError('subscriptions/listen needs a stream to deliver on'), modernErrorObject);
  const honoured = honouredFilter(frame.params.notifications, host.capabilities);
  const uris = (honoured.resourceSubscriptions ?? []) as string[];
  // Kept for as long as the listen is open: bounded before anything is kept.
  const { maxListenFilterEntries, maxUriLength } = host.app.settings;
  const entries = uris.length + ((honoured.taskIds as string[] | undefined)?.length ?? 0);
  try {
    if (entries > maxListenFilterEntries) {
      throw new InvalidParamsError(
        `subscriptions/listen names ${entries} resources and tasks (params.notifications.resourceSubscriptions and taskIds), over the limit of ${maxListenFilterEntries} (maxListenFilterEntries)`,
        { limit: maxListenFilterEntries },
      );
    }
    for (const uri of uris) checkUriLength(uri, 'subscriptions/listen params.notifications.resourceSubscriptions[]', maxUriLength);
  } catch (error) {
    // Which bound it met, as the other bounds log theirs (the request line says only -32602).
    (options.logger ?? host.logger).warn(
      { rpcId: id, method: SUBSCRIPTIONS_LISTEN },
      entries > maxListenFilterEntries
        ? 'refused a subscriptions/listen over maxListenFilterEntries'
        : 'refused a subscriptions/listen naming a URI over maxUriLength',
    );
    return Promise.resolve(errorAnswer(id, error, modernErrorObject));
  }
  const tag = { [SUBSCRIPTION_ID]: id };
  const ctx = access.context(frame, link, send);
  const listChanged = (list: keyof typeof LIST_CHANGED): JsonRpcMessage => ({ jsonrpc: '2.0', method: LIST_CHANGED[list], params: { _meta: tag } });
  const untrack = host.track(id, ctx, {
    params: frame.params,
    announce: () => {
      for (const list of LIST_NAMES) if (honoured[`${list}ListChanged`] === true) send(listChanged(list));
    },
  });
  // Hearing of a resource is reading it: a denial refuses the listen as it would refuse a read;
  // a hidden URI is acknowledged as an unknown one is, and never heard of. Checked while tracked,
  // so a client that leaves meanwhile ends it.
  let resources: Heard | Promise<Heard> | undefined = Array.isArray(honoured.resourceSubscriptions)
    ? resourceGrants(host.app, access, honoured.resourceSubscriptions as string[], ctx)
    : undefined;
  if (resources instanceof Promise) {
    try {
      resources = await resources;
    } catch (error) {
      untrack();
      return errorAnswer(id, error, modernErrorObject);
    }
    if (ctx.isCancelled) {
      untrack();
      return undefined;
    }
  }
  const heard = resources;
  // Looked up for every task event of the app: a set, not the array the client sent.
  const taskIds = Array.isArray(honoured.taskIds) ? new Set(honoured.taskIds as string[]) : undefined;
  if (acknowledge) send({ jsonrpc: '2.0', method: SUBSCRIPTIONS_ACKNOWLEDGED, params: { _meta: tag, notifications: honoured } });
  // Task states are told in the order they came, each once the caller is known to see the task.
  let taskStates = Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = host.app.settings.bus.subscribe((event) => {
      if (event.type === 'listChanged') {
        if (honoured[`${event.list}ListChanged`] === true) send(listChanged(event.list));
      } else if (event.type === 'taskStatus') {
        // The full task state, as tasks/get would answer it now (SEP-2663), and only to whom
        // tasks/get would answer it: naming an id is not enough for another principal's task.
        const { task } = event;
        if (taskIds?.has(task.taskId) === true) {
          taskStates = taskStates
            .then(() => access.maySee(task, ctx))
            .then((visible) => {
              if (visible && !ctx.signal.aborted)
                send({ jsonrpc: '2.0', method: METHOD.TASKS_NOTIFICATION, params: { ...modernTasks.state(task), _meta: tag } });
            })
            .catch((error: unknown) => ctx.logger.error({ err: error, taskId: task.taskId }, 'could not tell a listen of a task state'));
        }
      } else if (heard !== undefined && heard.uris.has(event.uri) && access.hears(event.uri, heard.grant)) {
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

/** The URIs of a listen its caller may hear of, and what let it in. */
interface Heard {
  readonly uris: ReadonlySet<string>;
  readonly grant: SubscriptionGrant;
}

/**
 * What a listen's caller may hear of the URIs it names, by each one's read rule; a denial
 * rejects. At once for an app without rules (its acknowledgement goes out before anything else).
 */
function resourceGrants(app: EraApp, access: LastingAccess, uris: readonly string[], ctx: ContextFacts): Heard | Promise<Heard> {
  const grant: SubscriptionGrant = { auth: ctx.auth, pipelines: app.pipelines };
  if (app.pipelines === undefined) return { uris: new Set(uris), grant };
  return (async () => {
    const heard = new Set<string>();
    for (const uri of uris) if ((await access.grant(uri, ctx)) !== undefined) heard.add(uri);
    return { uris: heard, grant };
  })();
}
