import { MODERN_PROTOCOL_VERSIONS, ErrorCode } from '@mcpkit/core';
import { isObject } from '@mcpkit/core/transport';
import { ClientErrorCode, McpClientError } from '../client-error';
import type { ClientEra, EraContext, ServerDescription } from './client-era';
import { LegacyEra } from './legacy-era';
import { ModernEra } from './modern-era';

/** Which era to speak: `auto` tries 2026-07-28 first and falls back to `initialize`. */
export type EraChoice = 'auto' | 'legacy' | 'modern';

/**
 * Opens the conversation in the era asked for. `auto` follows the spec's client-side detection
 * (protocol.md §3.3): `server/discover` first; a `DiscoverResult` means the modern era, and so
 * does `-32022` naming a modern revision this client speaks (it asks again with that one). Any
 * other answer — another error, an HTTP status with no modern error, no answer within the open
 * timeout — means the legacy era: the client sends `initialize` on the same connection. The
 * fallback is not keyed to one error code. A closed connection is not a fallback: it fails.
 */
export async function openEra(choice: EraChoice, context: EraContext): Promise<{ era: ClientEra; server: ServerDescription }> {
  if (choice === 'legacy') return opened(new LegacyEra(context));
  if (choice === 'modern') return opened(new ModernEra(context));
  const modern = new ModernEra(context);
  try {
    return { era: modern, server: await modern.open() };
  } catch (error) {
    if (!(error instanceof McpClientError) || error.code === ClientErrorCode.ConnectionClosed || context.peer.closeReason) throw error;
    const retry = modernRetry(error);
    if (retry !== undefined) return { era: modern, server: await modern.open(retry) };
  }
  return opened(new LegacyEra(context));
}

async function opened(era: ClientEra): Promise<{ era: ClientEra; server: ServerDescription }> {
  return { era, server: await era.open() };
}

/** The modern revision a `-32022` answer offers that this client speaks, if any. */
function modernRetry(error: McpClientError): string | undefined {
  const wire =
    error.code === ErrorCode.UnsupportedProtocolVersion
      ? error.data
      : isObject(error.data)
        ? (error.data.error as Record<string, unknown> | undefined)?.data
        : undefined;
  const code =
    error.code === ErrorCode.UnsupportedProtocolVersion ? error.code : isObject(error.data) && isObject(error.data.error) ? error.data.error.code : undefined;
  if (code !== ErrorCode.UnsupportedProtocolVersion || !isObject(wire) || !Array.isArray(wire.supported)) return undefined;
  return MODERN_PROTOCOL_VERSIONS.find((version) => (wire.supported as unknown[]).includes(version));
}
