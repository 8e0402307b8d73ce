export { mcpkit } from './plugin';
export { serveHttp, type ServeHttpOptions, type HttpServer } from './serve-http';
// The endpoint lives in @mcpkit/http; what users of this package import keeps working from here.
export {
  MemorySessionStore,
  MemoryEventStore,
  LOOPBACK_HOSTS,
  isAllowedHost,
  isAllowedOrigin,
  type McpHttpOptions,
  type ResponseMode,
  type SessionStore,
  type SessionRecord,
  type EventStore,
  type StoredEvent,
} from '@mcpkit/http';
