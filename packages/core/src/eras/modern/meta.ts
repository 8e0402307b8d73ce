// The reserved names of the stateless revision (protocol.md §3.2): every request carries its
// version and client in `_meta`, and listen streams tag what they relay.

/** The `_meta` keys a modern request and result use. */
export const META = {
  PROTOCOL_VERSION: 'io.modelcontextprotocol/protocolVersion',
  CLIENT_CAPABILITIES: 'io.modelcontextprotocol/clientCapabilities',
  CLIENT_INFO: 'io.modelcontextprotocol/clientInfo',
  LOG_LEVEL: 'io.modelcontextprotocol/logLevel',
  SERVER_INFO: 'io.modelcontextprotocol/serverInfo',
} as const;

export const SERVER_DISCOVER = 'server/discover';
export const SUBSCRIPTIONS_LISTEN = 'subscriptions/listen';
export const SUBSCRIPTIONS_ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';
export const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** The tasks extension (SEP-2663): negotiated per request in `clientCapabilities.extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
