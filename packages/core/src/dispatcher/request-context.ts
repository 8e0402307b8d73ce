import type { Logger } from '../logging/logger';
import type { RequestId } from '../protocol/json-rpc';
import type { ClientCapabilities, Implementation, Meta } from '../protocol/mcp-types';

/** Facts about the transport a request arrived on. */
export interface TransportInfo {
  kind: 'stdio' | 'http' | 'memory';
  /** HTTP request headers (lower-case names), when the transport has them. */
  headers?: Readonly<Record<string, string | string[] | undefined>>;
}

/** What the client told us about itself. */
export interface ClientInfo {
  /** The protocol revision in force for this request. */
  protocolVersion: string;
  capabilities: ClientCapabilities;
  info?: Implementation;
}

/** The handshake-era session a request belongs to (absent on stateless requests). */
export interface SessionInfo {
  /** `Mcp-Session-Id` on HTTP; undefined on stdio. */
  id?: string;
}

/**
 * Everything a handler may know or do about the request it serves: its handler's second argument.
 *
 * @example
 * @Tool()
 * async slow(input: SlowInput, ctx: RequestContext) {
 *   ctx.logger.debug({ ms: input.ms }, 'sleeping');
 *   await sleep(input.ms, ctx.signal);
 * }
 */
export class RequestContext {
  private childLogger: Logger | undefined = undefined;

  constructor(
    /** The JSON-RPC id of the request. */
    readonly requestId: RequestId,
    /** The JSON-RPC method (`tools/call`, `resources/read` …). */
    readonly method: string,
    /** Aborted when the client cancels the request or the connection closes. */
    readonly signal: AbortSignal,
    /** The client: protocol revision, capabilities and info. */
    readonly client: ClientInfo,
    /** The legacy session, when there is one. Never rely on it on the 2026-07-28 revision. */
    readonly session: SessionInfo | undefined,
    readonly transport: TransportInfo,
    /** The request's `params._meta`, if any. */
    readonly meta: Meta | undefined,
    private readonly baseLogger: Logger,
    private readonly logBindings: Record<string, unknown>,
  ) {}

  /** The server's own log for this request: a pino child with the request's id and target. */
  get logger(): Logger {
    // Created on first use: most requests never log, and a child costs an allocation.
    this.childLogger ??= this.baseLogger.child(this.logBindings);
    return this.childLogger;
  }
}
