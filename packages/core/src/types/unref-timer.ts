/**
 * Lets a timer not keep the process alive, where the runtime's timers can say so: Node's and
 * Bun's return an object with `unref`, while Cloudflare Workers and browsers return a number
 * (there is no process to keep alive). Every timer of mcpkit that must not hold a server open
 * goes through here, so that none of them throws `unref is not a function` off Node.
 *
 * @example
 * const timer = unrefTimer(setTimeout(flush, 100));
 * clearTimeout(timer);
 */
export function unrefTimer<T>(timer: T): T {
  const unref = (timer as { unref?: unknown } | null | undefined)?.unref;
  if (typeof unref === 'function') unref.call(timer);
  return timer;
}
