/**
 * Attribute names of the OpenTelemetry semantic conventions for MCP (gen-ai/mcp.md, status
 * Development), kept here rather than imported: they moved to semantic-conventions-genai, and the
 * main package marks its copies deprecated.
 */
export const ATTR = {
  MCP_METHOD_NAME: 'mcp.method.name',
  MCP_PROTOCOL_VERSION: 'mcp.protocol.version',
  MCP_RESOURCE_URI: 'mcp.resource.uri',
  MCP_SESSION_ID: 'mcp.session.id',
  GEN_AI_OPERATION_NAME: 'gen_ai.operation.name',
  GEN_AI_PROMPT_NAME: 'gen_ai.prompt.name',
  GEN_AI_TOOL_NAME: 'gen_ai.tool.name',
  GEN_AI_TOOL_CALL_ARGUMENTS: 'gen_ai.tool.call.arguments',
  GEN_AI_TOOL_CALL_RESULT: 'gen_ai.tool.call.result',
  JSONRPC_REQUEST_ID: 'jsonrpc.request.id',
  RPC_RESPONSE_STATUS_CODE: 'rpc.response.status_code',
  ERROR_TYPE: 'error.type',
  NETWORK_TRANSPORT: 'network.transport',
  NETWORK_PROTOCOL_NAME: 'network.protocol.name',
  NETWORK_PROTOCOL_VERSION: 'network.protocol.version',
  CLIENT_ADDRESS: 'client.address',
  CLIENT_PORT: 'client.port',
  /** The general conventions' end user (opt-in): the authenticated subject. */
  ENDUSER_ID: 'enduser.id',
  /** mcpkit's own: the client cancelled the request, or its connection closed under it. */
  MCPKIT_CANCELLED: 'mcpkit.request.cancelled',
  /** mcpkit's own: the request line's `outcome`, so a span and its audit line say the same word. */
  MCPKIT_OUTCOME: 'mcpkit.request.outcome',
  /** mcpkit's own (no convention has one): what the access check decided, `allow` | `hide` | `challenge` | `deny`. */
  MCPKIT_AUTH_DECISION: 'mcpkit.auth.decision',
} as const;

/** Metric names: the convention's two histograms, and mcpkit's own result size. */
export const METRIC = {
  OPERATION_DURATION: 'mcp.server.operation.duration',
  SESSION_DURATION: 'mcp.server.session.duration',
  RESULT_SIZE: 'mcpkit.server.result.size',
} as const;

/** The convention's advice for both duration histograms, in seconds. */
export const DURATION_BUCKETS: readonly number[] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** `error.type` of a tool failure (a result with `isError: true`). */
export const TOOL_ERROR = 'tool_error';

/** `error.type` of a request cancelled by its client (no answer was sent). */
export const CANCELLED = 'cancelled';

/**
 * The convention's value for a method the server does not know; mcpkit uses it in metrics for an
 * unknown tool or prompt name too, so the client's text never becomes a series.
 */
export const OTHER = '_OTHER';

/** How much of a status message a span keeps (a tool's error text, a JSON-RPC error message), as `clip` cuts it. */
export const STATUS_LENGTH = 500;
