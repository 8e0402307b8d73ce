import type { ClientCapabilities, Implementation, ServerCapabilities } from '@mcpkit/core';
import { isObject } from '@mcpkit/core/transport';
import type { CallOptions } from '../call-options';
import type { McpClientError } from '../client-error';
import type { RpcPeer } from '../rpc-peer';
import type { ServerRequestHandlers } from '../server-requests';
import type { ClientTransport } from '../transports/client-transport';

/** What the server said about itself: the `initialize` result, or on 2026-07-28 what `server/discover` said, in the same shape. */
export interface ServerDescription {
  /** The revision the client speaks with this server. */
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
}

/**
 * The description of a server from what it said, read by shape: a hostile or broken server's
 * garbage (capabilities that are not an object, a `serverInfo` without its name) becomes empty
 * values here, not a `TypeError` in the code that reads `client.capabilities.tools`.
 */
export function describeServer(protocolVersion: string, capabilities: unknown, serverInfo: unknown, instructions: unknown): ServerDescription {
  const named = isObject(serverInfo) && typeof serverInfo.name === 'string' && typeof serverInfo.version === 'string';
  return {
    protocolVersion,
    capabilities: (isObject(capabilities) ? capabilities : {}) as ServerCapabilities,
    serverInfo: named ? (serverInfo as unknown as Implementation) : { name: 'unknown', version: 'unknown' },
    ...(typeof instructions === 'string' ? { instructions } : {}),
  };
}

/** What an era speaks through. */
export interface EraContext {
  readonly peer: RpcPeer;
  readonly transport: ClientTransport;
  readonly capabilities: ClientCapabilities;
  readonly clientInfo: Implementation;
  readonly handlers: ServerRequestHandlers;
  readonly maxInputRounds: number;
  /** The questions one input-required result may ask at once (the bound of the server's requests). */
  readonly maxServerRequests: number;
  /** The revision to ask for (default: the newest this client speaks in the era). */
  readonly protocolVersion: string | undefined;
  /** How long opening may wait for the server's first answer, in ms. */
  readonly openTimeoutMs: number;
  /** The wait before a listen request that ended is opened again, in ms. */
  readonly relistenDelayMs: number;
  /** Where a failure that fails no call of the caller goes (a listen that could not be opened). */
  readonly report: (error: McpClientError) => void;
}

/**
 * How the client speaks one protocol era: the legacy era (`initialize`, a session, requests of
 * the server) or the modern one (`_meta` on every request, input-required rounds). `McpClient`
 * asks its era and never names one.
 */
export interface ClientEra {
  readonly name: 'legacy' | 'modern';
  open(): Promise<ServerDescription>;
  request(method: string, params: Record<string, unknown> | undefined, options?: CallOptions): Promise<Record<string, unknown>>;
  setLogLevel(level: string, options?: CallOptions): Promise<void>;
  /** Sends a notification of the client, with what the era adds to it. */
  notify(method: string, params?: Record<string, unknown>): Promise<void>;
  /** Subscribes to a resource's updates (`notifications/resources/updated`). */
  subscribe(uri: string, options?: CallOptions): Promise<void>;
  unsubscribe(uri: string, options?: CallOptions): Promise<void>;
  /**
   * A listener for `method` was added: an era that sends list changes only to those who ask
   * (2026-07-28: `subscriptions/listen`) asks for them.
   */
  watch(method: string): void;
  /** Stops what the era keeps open (listen streams). */
  close(): void;
}
