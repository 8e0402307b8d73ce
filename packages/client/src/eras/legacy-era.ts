import { LATEST_LEGACY_PROTOCOL_VERSION, LEGACY_PROTOCOL_VERSIONS } from '@mcpkit/core';
import type { CallOptions } from '../call-options';
import { ClientErrorCode, McpClientError } from '../client-error';
import { describeServer, type ClientEra, type EraContext, type ServerDescription } from './client-era';

/**
 * The legacy era (2024-11-05 … 2025-11-25): `initialize` with the newest revision asked for (or
 * the one given), the server's answer accepted when it is one this client speaks, then
 * `notifications/initialized`; every request after it plain, on the session it opened (HTTP:
 * `Mcp-Session-Id` and `MCP-Protocol-Version`, and the GET stream of the server's own messages).
 * The server's requests come as JSON-RPC requests and are answered by the handlers.
 */
export class LegacyEra implements ClientEra {
  readonly name = 'legacy';

  constructor(private readonly context: EraContext) {}

  async open(): Promise<ServerDescription> {
    const { peer, transport } = this.context;
    peer.cancelParams = (requestId, reason) => ({ requestId, reason });
    // After a modern attempt (era auto) the transport must not label initialize as a modern request.
    transport.setProtocolVersion(undefined);
    transport.setMessageHeaders?.(undefined);
    const asked = this.context.protocolVersion ?? LATEST_LEGACY_PROTOCOL_VERSION;
    const result = await peer.request(
      'initialize',
      { protocolVersion: asked, capabilities: this.context.capabilities, clientInfo: this.context.clientInfo },
      { timeoutMs: this.context.openTimeoutMs },
    );
    const version = result.protocolVersion;
    if (typeof version !== 'string' || !(LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
      throw new McpClientError(
        ClientErrorCode.UnsupportedProtocolVersion,
        `the server answered initialize with revision ${String(version)}, which this client does not speak`,
        {
          supported: [...LEGACY_PROTOCOL_VERSIONS],
          answered: version,
        },
      );
    }
    transport.setProtocolVersion(version);
    await peer.notify('notifications/initialized');
    transport.opened?.();
    return describeServer(version, result.capabilities, result.serverInfo, result.instructions);
  }

  request(method: string, params: Record<string, unknown> | undefined, options?: CallOptions): Promise<Record<string, unknown>> {
    return this.context.peer.request(method, params, options);
  }

  async setLogLevel(level: string, options?: CallOptions): Promise<void> {
    await this.context.peer.request('logging/setLevel', { level }, options);
  }

  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    return this.context.peer.notify(method, params);
  }

  async subscribe(uri: string, options?: CallOptions): Promise<void> {
    await this.context.peer.request('resources/subscribe', { uri }, options);
  }

  async unsubscribe(uri: string, options?: CallOptions): Promise<void> {
    await this.context.peer.request('resources/unsubscribe', { uri }, options);
  }

  /** The session carries every notification the server sends: nothing to ask for. */
  watch(): void {}

  close(): void {}
}
