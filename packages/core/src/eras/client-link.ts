import type { LogLevel } from '../logging/log-levels';
import type { JsonRpcMessage } from '../protocol/json-rpc';
import type { ClientInfo } from '../model/client-info';
import type { HeaderParam } from '../scanner/header-params';
import type { OutboundRequestOptions } from '../model/outbound-request-options';
import type { ValidatorFactory } from '../validation/validator-factory';
import type { TaskDialect } from './task-dialect';
import type { SessionInfo } from '../model/session-info';
import type { RootsCache } from './roots-cache';

/** A question for the client: sampling, elicitation or roots. */
export interface Question {
  method: string;
  params: Record<string, unknown>;
  /** Names the question on the modern era; questions are numbered by `kind` in asking order otherwise. */
  key: string | undefined;
  kind: string;
  /** Whether an answer has the shape this question expects (a wrong one counts as none). */
  usable: (answer: Record<string, unknown>) => boolean;
  /** Asked of the `tools/call` itself before its task exists, where the era can (`AskOptions.beforeTask`). */
  beforeTask?: boolean;
}

/** What `checkArgumentHeaders` reads of a request's transport (`TransportInfo` is one). */
export interface ArgumentTransport {
  readonly kind: string;
  readonly headers?: Readonly<Record<string, string | string[] | undefined>>;
}

/** What the request that asks offers the link: its stream, its signal, whether it is over. */
export interface Asker {
  readonly signal: AbortSignal;
  readonly send: ((message: JsonRpcMessage) => void) | undefined;
}

/**
 * How one request reaches its client, the part of the handler context that differs by era: the
 * handshake era sends requests on a session; the modern era collects answers in input-required
 * rounds. `RequestContext` asks its link and never looks at the era itself.
 */
export interface ClientLink {
  readonly client: ClientInfo;
  /** The handshake session; undefined on the modern era and on stateless HTTP. */
  readonly session: SessionInfo | undefined;
  /** Where elicitation schemas compile (once per app). */
  readonly validators: ValidatorFactory;
  /** Whether `notifications/progress` may carry a message for this client. */
  readonly progressMessages: boolean;
  /** Whether form elicitations say `mode: "form"` for this client. */
  readonly elicitationModes: boolean;
  /** How this era speaks tasks. */
  readonly tasks: TaskDialect;
  /** Whose tasks this client sees: its session (handshake era), else undefined (whoever holds a task id). */
  readonly taskOwner: string | undefined;
  /**
   * Where the client's roots are kept between requests (a handshake session); undefined where
   * each request asks anew (2026-07-28: its own input-required round).
   */
  readonly rootsCache?: RootsCache;
  /** True on a later round of an input-required exchange (modern era): the call is not new. */
  readonly continues?: boolean;
  /** The client-visible log threshold; undefined sends nothing. */
  logThreshold(): LogLevel | undefined;
  /** Throws the era's error when the client cannot be asked `method` (capability, session). */
  requireCapability(capability: 'sampling' | 'elicitation' | 'roots', method: string): void;
  /** Asks the client and resolves to its answer (or throws the era's way of waiting for one). */
  ask(question: Question, options: OutboundRequestOptions, asker: Asker): Promise<Record<string, unknown>>;
  /** URL-mode elicitation: the client's action and the id the server tracks the step by. */
  askUrl(
    message: string,
    url: string,
    key: string | undefined,
    options: OutboundRequestOptions,
    asker: Asker,
  ): Promise<{ action: 'accept' | 'decline' | 'cancel'; elicitationId: string }>;
  /** Tells the client a URL elicitation finished, where the era has a way to. */
  completeElicitation(elicitationId: string): void;
  /** Pings the client. */
  ping(options: OutboundRequestOptions, asker: Asker): Promise<void>;
  /** Sends a notification on the connection's own channel (when the request has no stream). */
  notify(method: string, params?: Record<string, unknown>): void;
  /**
   * Throws the era's error when the transport's copy of a tool call's arguments disagrees with
   * the body (2026-07-28 over HTTP: the `Mcp-Param-*` headers of `params`). Asked only once the
   * caller may see the tool: a hidden tool answers as an unknown one, whatever its headers say.
   */
  checkArgumentHeaders(params: readonly HeaderParam[], args: Record<string, unknown>, transport: ArgumentTransport): void;
}
