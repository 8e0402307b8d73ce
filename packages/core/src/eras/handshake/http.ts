// The handshake-era rules of Streamable HTTP (2025-03-26 … 2025-11-25): which versions the
// header may name, what a missing header means, where batches and priming events exist, and which
// HTTP status a JSON-RPC answer gets. Pure functions: the HTTP core asks, and never decides an era
// rule itself.
import { ErrorCode } from '../../errors/error-codes';
import type { JsonRpcResponse } from '../../protocol/json-rpc';
import { LEGACY_PROTOCOL_VERSIONS } from '../../protocol/protocol-versions';

const SERVED: ReadonlySet<string> = new Set(LEGACY_PROTOCOL_VERSIONS);

/** True for an `MCP-Protocol-Version` of the handshake era that this server speaks. */
export function isHandshakeVersion(version: string | undefined): boolean {
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
 * The HTTP status of a handshake-era answer: a message that was not a valid request is the
 * client's fault (400); every other answer, errors included, is 200.
 *
 * @example
 * handshakeHttpStatus({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }); // 400
 */
export function handshakeHttpStatus(answer: JsonRpcResponse | readonly JsonRpcResponse[]): number {
  if (Array.isArray(answer) || !('error' in answer)) return 200;
  const failure = answer as { id: unknown; error: { code: number } };
  return failure.id === null || MALFORMED.has(failure.error.code) ? 400 : 200;
}
