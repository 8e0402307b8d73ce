import type { SessionSnapshot } from '@mcpkit/core/transport';

/** Set by `mcpkit dev` on the server child it starts (with an IPC channel): serve when told, report the session. */
export const DEV_CHILD_ENV = 'MCPKIT_DEV_CHILD';

/** From the server child to `mcpkit dev`, over IPC (stdout carries protocol only). */
export type ChildMessage =
  /** The build loaded: the child can take over. */
  | { type: 'ready' }
  /** The client's session changed (undefined: nothing to keep). */
  | { type: 'snapshot'; snapshot?: SessionSnapshot };

/** From `mcpkit dev` to its server child: take over, continuing the client's session. */
export interface ServeMessage {
  type: 'serve';
  restore?: SessionSnapshot;
}

/** True in a server child of `mcpkit dev`. */
export function isDevChild(): boolean {
  return process.env[DEV_CHILD_ENV] === '1' && typeof process.send === 'function';
}

/**
 * The child's side: says the build loaded, then waits for `mcpkit dev` to hand over (the old
 * child still serves meanwhile) and serves. Ends with the dev process.
 */
export function serveForDev(serve: (restore: SessionSnapshot | undefined) => unknown): void {
  process.once('disconnect', () => process.exit(0));
  process.on('message', (message: ServeMessage) => {
    if (message?.type === 'serve') void Promise.resolve(serve(message.restore));
  });
  report({ type: 'ready' });
}

/** Sends a message to `mcpkit dev`; dropped once it is gone. */
export function report(message: ChildMessage): void {
  if (process.connected) process.send?.(message);
}
