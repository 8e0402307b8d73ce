import type { ClientCapabilities, Implementation, ServerCapabilities } from '@mcpkit/core';

/** What the app answered to `initialize` (modern era: what `server/discover` said, in the same shape). */
export interface InitializeInfo {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
}

/** The test client's plumbing an era speaks through: one request, one notification, one round of answers. */
export interface ClientWire {
  /** Sends one request and resolves with its result (throws `RpcError` for an error answer). */
  send(method: string, params: Record<string, unknown> | undefined): Promise<Record<string, unknown>>;
  notify(method: string, params?: Record<string, unknown>): Promise<void>;
  /** The client's answers to the questions of an input-required result, by key. */
  answer(requests: Record<string, { method: string; params?: Record<string, unknown> }>): Promise<Record<string, unknown>>;
}

/** How the client opens the conversation and what it declares. */
export interface OpenOptions {
  protocolVersion: string | undefined;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
}

/**
 * How the test client speaks one protocol era: the handshake (`initialize`, a session) or the
 * stateless revision (`_meta` on every request, input-required rounds). `TestClient` asks its era
 * and never names one.
 */
export interface ClientEra {
  readonly name: 'legacy' | 'modern';
  /** Input-required rounds the last request took (0: answered at once; always 0 on the legacy era). */
  readonly rounds: number;
  open(wire: ClientWire, options: OpenOptions): Promise<InitializeInfo>;
  request(wire: ClientWire, method: string, params: Record<string, unknown> | undefined): Promise<Record<string, unknown>>;
  setLogLevel(wire: ClientWire, level: string): Promise<void>;
  /** The params of a `subscriptions/listen` request; throws where the era subscribes otherwise. */
  listenParams(notifications: Record<string, unknown>): Record<string, unknown>;
  /** The params of `notifications/cancelled` for a request of this era. */
  cancelParams(requestId: string | number): Record<string, unknown>;
}
