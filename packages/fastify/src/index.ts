export { mcpkit } from './plugin';
export { serveHttp, type ServeHttpOptions, type HttpServer } from './serve-http';
export type { McpHttpOptions, ResponseMode } from './options';
export { MemorySessionStore, type SessionStore, type SessionRecord } from './session-store';
export { MemoryEventStore, type EventStore, type StoredEvent } from './event-store';
export { LOOPBACK_HOSTS, isAllowedHost, isAllowedOrigin } from './host-origin';
