import type { ClientCapabilities } from '@mcpkit/core';

/** What a handler of a server → client request is given. */
export interface ServerRequestContext {
  /** The request's method (`elicitation/create`, `sampling/createMessage`, `roots/list`, …). */
  method: string;
  /** Aborted when the server cancels its request or the connection closes. */
  signal: AbortSignal;
  /**
   * The client's call the server asks for, when the protocol tells: always on 2026-07-28 (an
   * input-required round of that call); on the legacy era over HTTP when the request came on
   * that call's response stream. Over legacy stdio, or on the GET stream, nothing relates them.
   */
  call?: RelatedCall;
}

/** The call of the client a server request belongs to. */
export interface RelatedCall {
  method: string;
  /** The `tag` of the call's options. */
  tag?: unknown;
}

/**
 * Answers one kind of server → client request: on the legacy era a JSON-RPC request of the
 * server, on 2026-07-28 a question of an input-required result; the handler sees the same params
 * either way. Throw a `McpClientError` to answer with its code (anything else answers -32603).
 */
export type ServerRequestHandler = (params: Record<string, unknown>, context: ServerRequestContext) => unknown;

/** Handlers of server → client requests, by method. */
export type ServerRequestHandlers = Partial<Record<'elicitation/create' | 'sampling/createMessage' | 'roots/list', ServerRequestHandler>> &
  Record<string, ServerRequestHandler>;

const CAPABILITY_OF: Readonly<Record<string, 'elicitation' | 'sampling' | 'roots'>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

// What a capability says when the client names none of its sub-flags: elicitation in form mode
// (URL mode only when asked for, since it sends the user elsewhere), plain sampling and roots.
const DEFAULT_CAPABILITY: Readonly<Record<'elicitation' | 'sampling' | 'roots', Record<string, unknown>>> = {
  elicitation: { form: {} },
  sampling: {},
  roots: {},
};

/**
 * The capabilities the client declares: one for each handler given (`elicitation`, `sampling`,
 * `roots`), with the sub-flags `given` names for it, plus `given`'s `experimental` and
 * `extensions`. A capability `given` names without a handler is not declared: the server would
 * ask, and nothing could answer.
 *
 * @example
 * declaredCapabilities({ 'elicitation/create': ask }, { elicitation: { form: {}, url: {} } }); // { elicitation: { form: {}, url: {} } }
 */
export function declaredCapabilities(handlers: ServerRequestHandlers, given: ClientCapabilities = {}): ClientCapabilities {
  const declared: Record<string, unknown> = {};
  for (const [method, capability] of Object.entries(CAPABILITY_OF)) {
    if (typeof handlers[method] !== 'function') continue;
    const flags = (given as Record<string, unknown>)[capability];
    declared[capability] = typeof flags === 'object' && flags !== null ? flags : DEFAULT_CAPABILITY[capability];
  }
  if (given.experimental !== undefined) declared.experimental = given.experimental;
  const extensions = (given as Record<string, unknown>).extensions;
  if (extensions !== undefined) declared.extensions = extensions;
  return declared as ClientCapabilities;
}
