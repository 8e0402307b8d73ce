import type { ClientInfo } from './client-info';
import type { Root } from './client-questions';
import type { SessionInfo } from './session-info';

/**
 * What `createApp({ onRootsChanged })` is told when a client says its roots changed
 * (`notifications/roots/list_changed`, legacy-era sessions only): the session, the client, and a
 * way to read the new roots, shared with `ctx.roots()` in that session (one `roots/list` for both).
 *
 * @example
 * createApp({
 *   name: 'files',
 *   version: '1.0.0',
 *   providers: [FileTools],
 *   onRootsChanged: async (change) => allowed.set(change.session.id, await change.roots()),
 * });
 */
export interface RootsChange {
  readonly session: SessionInfo;
  readonly client: ClientInfo;
  /** The new roots, asked of the client on the session's own channel (kept for the session's next `ctx.roots()`). */
  roots(): Promise<Root[]>;
}

/** The app-level hook of a roots change; what it throws or rejects is logged, never answered. */
export type RootsChangedHook = (change: RootsChange) => void | Promise<void>;
