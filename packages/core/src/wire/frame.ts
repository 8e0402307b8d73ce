import type { McpError } from '../errors/mcp-error';
import type { RequestId } from '../protocol/json-rpc';

/**
 * The two eras a message can belong to, in the words of the 2026-07-28 spec: `legacy`, the
 * revisions with an `initialize` handshake (2025-11-25 and earlier), and `modern`, the revisions
 * whose requests each carry their `_meta` (2026-07-28 and later).
 */
export type EraName = 'legacy' | 'modern';

/**
 * One incoming JSON-RPC message, read and classified once at the transport edge: nothing after
 * it reads the raw message, its `_meta` or its target again.
 */
export interface Frame {
  readonly kind: 'request' | 'notification' | 'response' | 'invalid';
  /** The request id; null when it could not be read (and for notifications). */
  readonly id: RequestId | null;
  /**
   * The method; empty for responses, and for malformed messages unless they asked for an answer
   * (a string method and an id).
   */
  readonly method: string;
  /** `params` (a frozen empty object when absent or not an object). */
  readonly params: Readonly<Record<string, unknown>>;
  /** `params._meta` when it is an object. */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  readonly era: EraName;
  /** What the request acts on: the tool or prompt name, the resource URI (as sent, any type). */
  readonly target: unknown;
  /** A response to one of our requests: the message itself. */
  readonly response: Record<string, unknown> | undefined;
  /** Why an invalid message is invalid: the error that answers it. */
  readonly problem: McpError | undefined;
}

/** A frame that is a request: it has an id and a method. */
export interface RequestFrame extends Frame {
  readonly kind: 'request';
  readonly id: RequestId;
}

/** What one transport message carries: a classified message, or a batch (its elements are classified when it is served). */
export type MessageBody = Frame | unknown[];
