/**
 * `@mcpkit/http/scale-out`: what a scale-out backend implements (the session router that carries
 * streams between instances, and the helpers its event log needs). `@mcpkit/redis` is one; an
 * app author spreads a backend's stores into the HTTP options and never imports this.
 *
 * @example
 * import type { SessionRouter } from '@mcpkit/http/scale-out';
 * class MyRouter implements SessionRouter { … }
 * @packageDocumentation
 */
export type {
  SessionRouter,
  RouterReader,
  RouterAttachment,
  RouterHandlers,
  RoutedEvent,
  ForwardTarget,
  ChangedList,
  RouterPosition,
  ResumePosition,
} from './session-router';
export type { StreamFollower, FollowHandle } from './stream-follower';
export { broadcastText, compareStreamIds, isRoutedPosition, type Broadcast } from './routed-position';
export { answeredIds } from './answered-ids';
