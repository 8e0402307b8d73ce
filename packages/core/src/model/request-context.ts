import type { AuthInfo } from '../auth/auth-info';
import type { Logger } from '../logging/logger';
import type { Constructor } from '../metadata/constructor';
import type { RequestId } from '../protocol/json-rpc';
import type { JsonSchema, Meta } from '../protocol/mcp-types';
import type { CacheHint } from '../results/cache-hints';
import type { ClientInfo } from './client-info';
import type { ClientLog } from './client-log';
import type { AskOptions, ElicitResult, Root, SamplingRequest, SamplingResult } from './client-questions';
import type { OutboundRequestOptions } from './outbound-request-options';
import type { SessionInfo } from './session-info';
import type { TaskHandle } from './task-handle';
import type { TraceContext } from './trace-context';
import type { TransportInfo } from './transport-info';

/**
 * Everything a handler may know or do about the request it serves: its handler's second argument
 * (and what guards, interceptors and filters are given). The dispatcher builds one per request.
 *
 * @example
 * @Tool()
 * async slow(input: SlowInput, ctx: RequestContext) {
 *   ctx.logger.debug({ ms: input.ms }, 'sleeping');
 *   await sleep(input.ms, ctx.signal);
 * }
 */
export interface RequestContext {
  /** The JSON-RPC id of the request. */
  readonly requestId: RequestId;
  /** The JSON-RPC method (`tools/call`, `resources/read` …). */
  readonly method: string;
  /** The client: protocol revision, capabilities and info. */
  readonly client: ClientInfo;
  /** The legacy-era session, when there is one. Never rely on it: stateless requests have none. */
  readonly session: SessionInfo | undefined;
  /** How the request came: the transport's kind, its headers on HTTP, the caller it verified. */
  readonly transport: TransportInfo;
  /** The request's `params._meta`, if any. */
  readonly meta: Meta | undefined;
  /** The task this call runs as, when the client asked for one (`@Tool({ task })`); undefined otherwise. */
  readonly task: TaskHandle | undefined;

  /**
   * Who is calling, when the transport knows: the subject, client, scopes and claims of a
   * verified credential (never the credential itself). Undefined for anonymous callers.
   *
   * @example
   * if (!ctx.auth?.scopes.includes('notes:write')) return 'read-only';
   */
  readonly auth: AuthInfo | undefined;

  /** Aborted when the client cancels the request, the connection closes, or a timeout hits. */
  readonly signal: AbortSignal;

  /** True once the request was cancelled (by the client or the connection closing). */
  readonly isCancelled: boolean;

  /**
   * Calls `listener` once when `signal` aborts (at once if it has), without making `signal`: for
   * code that only passes a cancellation on, as a proxy does on every call, where an
   * `AbortSignal` per call costs more than the rest of a small call. Returns the function that
   * stops listening.
   *
   * @example
   * const stop = ctx.onCancel((reason) => upstream.cancel(reason));
   * try { return await upstream.call(); } finally { stop(); }
   */
  onCancel(listener: (reason: Error) => void): () => void;

  /**
   * The caller's W3C trace context (`traceparent`, `tracestate`, `baggage` from `_meta`, or over
   * HTTP from the headers), to continue its trace; `undefined` when it sent none or an invalid one.
   *
   * @example
   * const parent = ctx.trace?.traceparent;
   */
  readonly trace: TraceContext | undefined;

  /** The server's own log for this request: a pino child with the request's id and target. */
  readonly logger: Logger;

  /** Client-visible logging (`notifications/message`), filtered by the level the client set. */
  readonly log: ClientLog;

  /** The request's `_meta.progressToken`, when the client asked for progress. */
  readonly progressToken: string | number | undefined;

  /**
   * Sets how long 2026-07-28 clients may keep this answer and who may share it, over the hint the
   * resource declares (only `resources/read` results carry one). Say `private` when this answer
   * depends on the caller.
   *
   * @example
   * ctx.setCacheHint({ scope: 'private' });
   */
  setCacheHint(hint: CacheHint): void;

  /**
   * Lets go of the client's connection while the work goes on (SSE polling, 2025-11-25): on
   * Streamable HTTP sessions the response stream is closed after an event id, the client
   * reconnects with `Last-Event-ID` and gets everything after it, the result included. Useful
   * for long calls behind proxies that cut idle connections. Returns false where the transport
   * cannot do it (stdio, stateless HTTP), and nothing changes.
   */
  releaseConnection(): boolean;

  /**
   * Reports progress to the client (`notifications/progress`), if it asked for it with a
   * progress token; otherwise does nothing. Values must increase: a value not above the last
   * one is dropped, as is anything after the handler has returned.
   *
   * @example
   * for (const [i, file] of files.entries()) {
   *   await index(file);
   *   ctx.progress(i + 1, files.length, `indexed ${file}`);
   * }
   */
  progress(progress: number, total?: number, message?: string): void;

  /**
   * Asks the client's model for a completion (`sampling/createMessage`). Needs the client's
   * `sampling` capability and a session.
   *
   * @throws ClientCapabilityError, RequestTimeoutError, ClientRequestError
   * @example
   * const answer = await ctx.sample(`Summarise: ${text}`, { maxTokens: 200 });
   */
  sample(request: string | SamplingRequest, options?: AskOptions & { maxTokens?: number }): Promise<SamplingResult>;

  /**
   * Asks the user for structured input (form elicitation). The DTO (flat primitive fields) or
   * raw schema becomes the `requestedSchema`; an accepted answer comes back validated, as a DTO
   * instance when a DTO was given.
   *
   * @throws ClientCapabilityError, RequestTimeoutError, ClientRequestError, ToolError (an answer that breaks the schema)
   * @example
   * const answer = await ctx.elicit('Which account?', AccountChoice);
   * if (answer.action !== 'accept') return 'Cancelled.';
   * return transfer(answer.content.account);
   */
  elicit<T = Record<string, unknown>>(message: string, schema: Constructor<T> | JsonSchema, options?: AskOptions): Promise<ElicitResult<T>>;

  /**
   * Sends the user to a URL (URL-mode elicitation), e.g. to sign in somewhere. Needs the client's
   * `elicitation.url` capability. On the legacy era (2025-11-25) it is an `elicitation/create`
   * request with a fresh `elicitationId`; call `completeElicitation(id)` when the out-of-band step
   * is done. On 2026-07-28 it is a question of an input-required round like `ctx.elicit`
   * (`{ mode: "url", message, url }`, no id on the wire): `elicitationId` is the question's key,
   * and the client's retry is the moment to check that the step really happened.
   *
   * @throws ClientCapabilityError (legacy era), MissingRequiredClientCapabilityError (`-32021`, 2026-07-28)
   * @example
   * const answer = await ctx.elicitUrl('Sign in to the calendar', authorizeUrl, { key: 'sign-in' });
   * if (answer.action !== 'accept' || !(await tokens.has(user))) return 'Not signed in.';
   */
  elicitUrl(message: string, url: string, options?: AskOptions): Promise<{ action: 'accept' | 'decline' | 'cancel'; elicitationId: string }>;

  /**
   * Tells the client a URL elicitation finished (`notifications/elicitation/complete`). On
   * 2026-07-28 it does nothing: that revision has no such notification (nor a stream to send it
   * on); the client learns the outcome from the result of its retry.
   */
  completeElicitation(elicitationId: string): void;

  /**
   * The client's roots (`roots/list`). Needs the client's `roots` capability. On a legacy-era
   * session they are asked once and kept until the client sends `notifications/roots/list_changed`
   * (`createApp({ onRootsChanged })` hears it); a client that lets one `roots/list` outlast
   * `rootsTimeoutMs` (5 s) is not asked again, the call throws `SilentClientError` at once, until
   * it answers something. On 2026-07-28 each request asks in its own input-required round.
   *
   * @example
   * const [workspace] = await ctx.roots();
   */
  roots(options?: AskOptions): Promise<Root[]>;

  /** Pings the client; resolves when it answers. */
  ping(options?: OutboundRequestOptions): Promise<void>;
}
