import { UnsupportedProtocolVersionError, type McpError } from '../errors/mcp-error';
import { LEGACY_PROTOCOL_VERSIONS } from '../protocol/protocol-versions';
import type { Frame, MessageBody } from '../wire/frame';
import { META } from './modern/meta';
import { isModernVersion } from './modern/http';

/**
 * The 2024-11-05 HTTP+SSE transport serves the handshake revisions only; 2026-07-28 has no such
 * transport. The error for a message that claims it there, by its `MCP-Protocol-Version` header
 * or a request's `_meta` (`-32022`, naming the revisions the transport serves; answered `400`,
 * like any version an endpoint does not serve), else undefined.
 *
 * @example
 * const refused = httpSseRefusal(protocolVersionHeader(headers), body);
 * if (refused) return errorResult(400, refused, idOf(body));
 */
export function httpSseRefusal(version: string | undefined, body?: MessageBody): McpError | undefined {
  const frame = body === undefined || Array.isArray(body) ? undefined : (body as Frame);
  const byHeader = isModernVersion(version);
  if (!byHeader && frame?.era !== 'modern') return undefined;
  const claimed = frame?.meta?.[META.PROTOCOL_VERSION];
  const requested = byHeader ? version! : typeof claimed === 'string' ? claimed : '';
  return new UnsupportedProtocolVersionError(requested, LEGACY_PROTOCOL_VERSIONS);
}
