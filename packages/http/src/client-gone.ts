import type { IncomingMessage, ServerResponse } from 'node:http';

// One socket 'close' listener per socket, whatever the number of requests pipelined on it.
const watchers = new WeakMap<object, Set<() => void>>();

function watch(socket: NonNullable<IncomingMessage['socket']>, listener: () => void): () => void {
  let listeners = watchers.get(socket);
  if (!listeners) {
    const set = new Set<() => void>();
    listeners = set;
    watchers.set(socket, set);
    socket.once('close', () => {
      watchers.delete(socket);
      for (const each of [...set]) each();
    });
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Calls `listener` once if the client goes away before `res` is finished: for a `node:http`
 * binding's `onClose`. The response's own `close` is not enough: on Node 20 a response queued
 * behind another on a pipelined keep-alive connection has no socket yet and never closes when
 * the client goes, so its request would run on (a listen forever). The request's socket is
 * watched as well; a socket already gone calls the listener on the next tick.
 *
 * @example
 * const request: HttpRequest = { ...rest, onClose: (listener) => onClientGone(req, res, listener) };
 */
export function onClientGone(req: IncomingMessage, res: ServerResponse, listener: () => void): void {
  const socket = req.socket;
  const alive = socket !== null && !socket.destroyed;
  // The common case: the response already holds the request's socket (nothing queued before it
  // on the connection), so the socket closing closes the response, and its 'close' is enough:
  // one listener, no watch on the socket. `on`, not `once`: a response closes once, and `once`
  // would wrap the listener in two more objects on every request.
  if (alive && res.socket === socket) {
    res.on('close', () => {
      if (!res.writableFinished) listener();
    });
    return;
  }
  let done = false;
  const settle = (): void => {
    done = true;
    unwatch?.();
  };
  const fire = (): void => {
    if (done) return;
    settle();
    if (!res.writableFinished) listener();
  };
  const unwatch = alive ? watch(socket, fire) : undefined;
  res.once('close', fire);
  res.once('finish', settle);
  if (!alive) process.nextTick(fire);
}
