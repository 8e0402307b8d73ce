// The legacy-era rules of Streamable HTTP (2025-03-26 … 2025-11-25): which versions the
// header may name, what a missing header means, where batches and priming events exist, and which
// HTTP status a JSON-RPC answer gets. Pure functions: the HTTP core asks, and never decides an era
// rule itself.
import { ErrorCode } from '../../errors/error-codes';
import { InvalidRequestError, type McpError } from '../../errors/mcp-error';
import type { JsonRpcResponse } from '../../protocol/json-rpc';
import { LEGACY_PROTOCOL_VERSIONS, SUPPORTED_PROTOCOL_VERSIONS } from '../../protocol/protocol-versions';
import type { MessageBody } from '../../wire/frame';
import type { HeaderValues } from '../../wire/header-values';

const SERVED: ReadonlySet<string> = new Set(LEGACY_PROTOCOL_VERSIONS);
const SUPPORTED: ReadonlySet<string> = new Set(SUPPORTED_PROTOCOL_VERSIONS);

/** True for an `MCP-Protocol-Version` of the legacy era that this server speaks. */
export function isLegacyVersion(version: string | undefined): boolean {
  return version !== undefined && SERVED.has(version);
}

/** Streamable HTTP, "Protocol Version Header": without the header, assume 2025-03-26. */
export const VERSION_WITHOUT_HEADER = '2025-03-26';

/** The one revision with JSON-RPC batches. */
export const BATCH_VERSION = '2025-03-26';

/** Whether a stream of this revision starts with a priming event (an id and empty data): 2025-11-25 on; older clients may choke on it. */
export function primesStreams(version: string): boolean {
  return version >= '2025-11-25';
}

const MALFORMED: ReadonlySet<number> = new Set([ErrorCode.ParseError, ErrorCode.InvalidRequest]);

/**
 * The HTTP status of a legacy-era answer: a message that was not a valid request is the
 * client's fault (400); every other answer, errors included, is 200.
 *
 * @example
 * legacyHttpStatus({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }); // 400
 */
export function legacyHttpStatus(answer: JsonRpcResponse | readonly JsonRpcResponse[]): number {
  if (Array.isArray(answer) || !('error' in answer)) return 200;
  const failure = answer as { id: unknown; error: { code: number } };
  return failure.id === null || MALFORMED.has(failure.error.code) ? 400 : 200;
}

/**
 * The legacy era's Streamable HTTP rules, as the HTTP core asks them (the same shape as
 * `modernHttp`): requests belong to sessions, a stream may open before the result, GET and
 * DELETE address the session. It claims whatever the modern era does not.
 */
export const legacyHttp = Object.freeze({
  claims: (_version: string | undefined, _body?: MessageBody): boolean => true,
  sessions: true,
  streamsUpFront: true,
  /** What the dispatcher is told with each message of this era: nothing beyond its own frame. */
  receive: Object.freeze({}),
  admit: (_headers: HeaderValues, _body: MessageBody): McpError | undefined => undefined,
  status: legacyHttpStatus,
  /** The versions a session's `MCP-Protocol-Version` may name. */
  versions: LEGACY_PROTOCOL_VERSIONS as readonly string[],
  servesVersion: isLegacyVersion,
});

/** True for an `MCP-Protocol-Version` this server speaks, in either era (the one list of revisions). */
export function isServedVersion(version: string): boolean {
  return SUPPORTED.has(version);
}

/**
 * Without a session, only the header says which revision a client negotiated: a missing one
 * means 2025-03-26 for single messages (Streamable HTTP, "Protocol Version Header"), but a batch
 * must not run on a guess. The error for a batch that does, else undefined.
 */
export function sessionlessBatchError(version: string | undefined, message: unknown): McpError | undefined {
  if (!Array.isArray(message) || version === BATCH_VERSION) return undefined;
  return new InvalidRequestError(`JSON-RPC batches need MCP-Protocol-Version: ${BATCH_VERSION} on a stateless server`);
}

/** The client a sessionless request speaks for, when it is not an `initialize`: its header's revision, or the default. */
export function sessionlessClient(version: string | undefined): { protocolVersion: string; capabilities: Record<string, never> } {
  return { protocolVersion: version ?? VERSION_WITHOUT_HEADER, capabilities: {} };
}
