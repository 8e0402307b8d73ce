import type { Logger } from '../logging/logger';
import type { JsonRpcNotification, RequestId } from '../protocol/json-rpc';
import { METHOD } from '../protocol/methods';
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
  private lastProgress = -Infinity;
  private done = false;

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
    private readonly sendRelated: ((message: JsonRpcNotification) => void) | undefined = undefined,
  ) {}

  /** The request's `_meta.progressToken`, when the client asked for progress. */
  get progressToken(): string | number | undefined {
    const token = this.meta?.progressToken;
    return typeof token === 'string' || typeof token === 'number' ? token : undefined;
  }

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
  progress(progress: number, total?: number, message?: string): void {
    const token = this.progressToken;
    if (token === undefined || this.sendRelated === undefined || this.done || this.signal.aborted) return;
    if (!(progress > this.lastProgress)) {
      this.logger.debug({ progress, last: this.lastProgress }, 'progress must increase; update dropped');
      return;
    }
    this.lastProgress = progress;
    const params: Record<string, unknown> = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    // `message` joined the notification in 2025-03-26.
    if (message !== undefined && this.client.protocolVersion >= '2025-03-26') params.message = message;
    this.sendRelated({ jsonrpc: '2.0', method: METHOD.PROGRESS, params });
  }

  /** @internal Marks the handler as returned: nothing more may be sent for this request. */
  finish(): void {
    this.done = true;
  }

  /** The server's own log for this request: a pino child with the request's id and target. */
  get logger(): Logger {
    // Created on first use: most requests never log, and a child costs an allocation.
    this.childLogger ??= this.baseLogger.child(this.logBindings);
    return this.childLogger;
  }
}
