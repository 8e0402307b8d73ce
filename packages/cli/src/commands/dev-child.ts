import type { SessionSnapshot } from '@mcpkit/core/transport';
import type { SessionRecord, SessionStore } from '@mcpkit/fastify';

/** Set by `mcpkit dev` on the server child it starts (with an IPC channel): serve when told, report the session. */
export const DEV_CHILD_ENV = 'MCPKIT_DEV_CHILD';

/** From the server child to `mcpkit dev`, over IPC (stdout carries protocol only). */
export type ChildMessage =
  /** The build loaded: the child can take over. */
  | { type: 'ready' }
  /** The client's session changed (undefined: nothing to keep). */
  | { type: 'snapshot'; snapshot?: SessionSnapshot }
  /** An HTTP session began (or its record changed). */
  | { type: 'session'; record: SessionRecord }
  /** An HTTP session ended. */
  | { type: 'sessionEnded'; id: string };

/** From `mcpkit dev` to its server child: take over, continuing the client's session. */
export interface ServeMessage {
  type: 'serve';
  /** stdio: the client's session. */
  restore?: SessionSnapshot;
  /** HTTP: the sessions the previous build held, to rebuild on demand. */
  sessions?: SessionRecord[];
}

/** True in a server child of `mcpkit dev`. */
export function isDevChild(): boolean {
  return process.env[DEV_CHILD_ENV] === '1' && typeof process.send === 'function';
}

/**
 * The child's side: says the build loaded, then waits for `mcpkit dev` to hand over (the old
 * child still serves meanwhile) and serves. Ends with the dev process.
 */
export function serveForDev(serve: (message: ServeMessage) => unknown): void {
  process.once('disconnect', () => process.exit(0));
  process.on('message', (message: ServeMessage) => {
    if (message?.type === 'serve') void Promise.resolve(serve(message));
  });
  report({ type: 'ready' });
}

/** Sends a message to `mcpkit dev`; dropped once it is gone. */
export function report(message: ChildMessage): void {
  if (process.connected) process.send?.(message);
}

/**
 * The HTTP session store of a dev child: starts with the sessions of the build before it and
 * tells `mcpkit dev` of each change, so the next build rebuilds them (core's `restore`).
 */
export function handedOverSessions(records: readonly SessionRecord[] = []): SessionStore {
  const held = new Map(records.map((record) => [record.id, record]));
  return {
    get: (id) => held.get(id),
    set: (record) => {
      held.set(record.id, record);
      report({ type: 'session', record });
    },
    delete: (id) => {
      held.delete(id);
      report({ type: 'sessionEnded', id });
    },
  };
}
