export { createHttpHandler, clientErrorResult, type McpHttpHandler, type HttpHandlerOptions, type TransportFault } from './http-handler';
export type { HttpRequest, HttpResult, HttpBodyResult, HttpStreamResult, HttpHeaders } from './http-result';
export { EventStream, type EventSink } from './event-stream';
export { createFetchHandler, type FetchHandler } from './fetch-handler';
export { onClientGone } from './client-gone';
export { answerUnreadBody, hasUnreadBody, type DrainOptions } from './answer-unread-body';
export { censorQueryCredentials } from './query-credentials';
export type { McpHttpOptions, ResponseMode } from './options';
export type { EndpointRateLimitOptions, EndpointCaller } from './endpoint-rate-limit';
export { jwtVerifier, type JwtVerifierOptions } from './jwt-verifier';
export { introspectionVerifier, type IntrospectionVerifierOptions } from './introspection-verifier';
export { InvalidTokenError, type TokenVerifier, type ResourceServerOptions, type Authentication } from './resource-server';
export type { ServerCardEndpointOptions } from './server-card-route';
export { MemorySessionStore, SessionRecordTooLargeError, type SessionStore, type SessionRecord } from './session-store';
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
export { MemoryEventStore, type EventStore, type StoredEvent, type MemoryEventStoreOptions } from './event-store';
export { LOOPBACK_HOSTS, isAllowedHost, isAllowedOrigin, type HostAllowList } from './host-origin';
