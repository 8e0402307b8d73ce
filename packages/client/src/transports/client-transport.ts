import type { JsonRpcMessage } from '@mcpkit/core';
import type { McpClientError } from '../client-error';

/** Where a transport delivers what it reads. */
export interface TransportSink {
  /**
   * One parsed message from the server (still unchecked: the peer reads it); `relatedTo` is the
   * id of the request whose response stream carried it (HTTP), if any.
   */
  message(message: unknown, relatedTo?: number): void;
  /**
   * A message that could not be read and belongs to the request in flight on its own channel
   * (an HTTP POST's oversized or garbled answer): that request fails with `error`.
   */
  failed(requestId: number, error: McpClientError): void;
  /** The transport is gone for good (the child exited, a stream broke beyond repair, close). */
  closed(error: McpClientError): void;
}

/** What the peer tells a transport about one message it sends. */
export interface SendOptions {
  /**
   * Aborted when the request ends (answered, cancelled, timed out): a transport whose request owns
   * a stream (an HTTP POST) closes it, which is how a 2026-07-28 request is cancelled over HTTP.
   */
  signal?: AbortSignal;
}

/**
 * How the client reaches a server: stdio (a child process) or Streamable HTTP. Messages are
 * encoded and framed by the transport, with core's codec and bounds.
 */
export interface ClientTransport {
  /** `stdio` or `http`: the era reads it for how a request is cancelled. */
  readonly kind: 'stdio' | 'http';
  start(sink: TransportSink): Promise<void>;
  /**
   * Sends one message. Rejects with a `McpClientError` when it cannot go out (too large, the
   * HTTP endpoint refused it with no JSON-RPC answer); answers come to the sink.
   */
  send(message: JsonRpcMessage, options?: SendOptions): Promise<void>;
  /** The protocol revision agreed on, for transports that label their requests with it (HTTP); undefined: none yet. */
  setProtocolVersion(version: string | undefined): void;
  /** How the era labels each message with headers (HTTP); undefined: no labels. */
  setMessageHeaders?(headers: ((message: JsonRpcMessage) => Record<string, string>) | undefined): void;
  /** Called once the session is open (legacy era over HTTP: opens the GET stream). */
  opened?(): void;
  close(): Promise<void>;
}
