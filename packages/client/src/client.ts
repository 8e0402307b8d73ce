import type {
  CallToolResult,
  GetPromptResult,
  Implementation,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpTool,
  ReadResourceResult,
  ServerCapabilities,
} from '@mcpkit/core';
import { optionTypeError, readOptions } from '@mcpkit/core/transport';
import type { CallOptions } from './call-options';
import { ClientErrorCode, McpClientError } from './client-error';
import { CLIENT_OPTIONS, type ClientOptions } from './client-options';
import type { ClientEra, ServerDescription } from './eras/client-era';
import { openEra } from './eras/open-era';
import { RpcPeer, type NotificationListener } from './rpc-peer';
import { declaredCapabilities } from './server-requests';
import type { ClientTransport } from './transports/client-transport';
import { HttpClientTransport, type HttpTarget } from './transports/http-transport';
import { StdioClientTransport, type StdioTarget } from './transports/stdio-transport';

/** Where the client connects: a command to spawn (stdio), an HTTP endpoint, or a transport of your own. */
export type ClientTarget = StdioTarget | HttpTarget | (() => ClientTransport);

/** One page of a list. */
export interface Page {
  nextCursor?: string;
}

const DEFAULT_CLIENT_INFO: Implementation = { name: 'mcpkit-client', version: '0.1.0' };

/**
 * A connection to one MCP server, over stdio or Streamable HTTP, in either protocol era: typed
 * methods for every server feature, `request` for anything else, notification listeners, and
 * the server's requests answered by the handlers given. Long-lived: it stays open until `close()`
 * or until the server goes (then every waiting call fails, and `onClose` listeners are told);
 * `reconnect()` opens it again with the same listeners.
 *
 * @example
 * const client = await McpClient.connect({ command: 'node', args: ['dist/main.js', 'stdio'] });
 * const { tools } = await client.listTools();
 * const result = await client.callTool('add', { a: 1, b: 2 }, { onProgress: (p) => console.log(p.progress) });
 * await client.close();
 */
export class McpClient {
  private peer!: RpcPeer;
  private eraOf!: ClientEra;
  private description!: ServerDescription;
  private transportOf!: ClientTransport;
  private readonly listeners = new Map<string, Set<NotificationListener>>();
  private readonly closeListeners = new Set<(error: McpClientError) => void>();
  private readonly subscriptions = new Set<string>();
  private readonly options: ReturnType<typeof readClientOptions>;

  private constructor(
    private readonly target: ClientTarget,
    given: ClientOptions,
  ) {
    this.options = readClientOptions(given);
  }

  /** Connects and opens the conversation (`server/discover` or `initialize`); rejects with a `McpClientError` when it cannot. */
  static async connect(target: ClientTarget, options: ClientOptions = {}): Promise<McpClient> {
    const client = new McpClient(target, options);
    await client.open();
    return client;
  }

  /** What the server said about itself (its revision, capabilities, info and instructions). */
  get server(): ServerDescription {
    return this.description;
  }

  /** The server's capabilities. */
  get capabilities(): ServerCapabilities {
    return this.description.capabilities;
  }

  /** The era spoken with this server: `legacy` (`initialize`) or `modern` (2026-07-28). */
  get era(): 'legacy' | 'modern' {
    return this.eraOf.name;
  }

  /** The transport in use (a `StdioClientTransport` or an `HttpClientTransport`). */
  get transport(): ClientTransport {
    return this.transportOf;
  }

  /** Whether the connection is closed, and why. */
  get closed(): McpClientError | undefined {
    return this.peer.closeReason;
  }

  listTools(params: { cursor?: string } = {}, options?: CallOptions): Promise<{ tools: McpTool[] } & Page> {
    return this.typed('tools/list', params, options) as never;
  }

  callTool(name: string, args: Record<string, unknown> = {}, options?: CallOptions): Promise<CallToolResult> {
    return this.typed('tools/call', { name, arguments: args }, options) as never;
  }

  listResources(params: { cursor?: string } = {}, options?: CallOptions): Promise<{ resources: McpResource[] } & Page> {
    return this.typed('resources/list', params, options) as never;
  }

  listResourceTemplates(params: { cursor?: string } = {}, options?: CallOptions): Promise<{ resourceTemplates: McpResourceTemplate[] } & Page> {
    return this.typed('resources/templates/list', params, options) as never;
  }

  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    return this.typed('resources/read', { uri }, options) as never;
  }

  listPrompts(params: { cursor?: string } = {}, options?: CallOptions): Promise<{ prompts: McpPrompt[] } & Page> {
    return this.typed('prompts/list', params, options) as never;
  }

  getPrompt(name: string, args: Record<string, string> = {}, options?: CallOptions): Promise<GetPromptResult> {
    return this.typed('prompts/get', { name, arguments: args }, options) as never;
  }

  /** `completion/complete`: suggestions for a prompt's or a resource template's argument. */
  complete(
    params: {
      ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
      argument: { name: string; value: string };
      context?: { arguments?: Record<string, string> };
    },
    options?: CallOptions,
  ): Promise<{ completion: { values: string[]; total?: number; hasMore?: boolean } }> {
    return this.typed('completion/complete', params, options) as never;
  }

  /**
   * Subscribes to a resource (`notifications/resources/updated`): `resources/subscribe`, or on
   * 2026-07-28 a `subscriptions/listen` request the client keeps open. Renewed by `reconnect()`.
   */
  async subscribe(uri: string, options?: CallOptions): Promise<void> {
    await this.eraOf.subscribe(uri, options);
    this.subscriptions.add(uri);
  }

  async unsubscribe(uri: string, options?: CallOptions): Promise<void> {
    this.subscriptions.delete(uri);
    await this.eraOf.unsubscribe(uri, options);
  }

  /** The level of the log notifications the server sends (`logging/setLevel`, or on 2026-07-28 the `_meta` of every request). */
  setLogLevel(level: string, options?: CallOptions): Promise<void> {
    return this.eraOf.setLogLevel(level, options);
  }

  /**
   * Any request, in the era spoken (2026-07-28: with its `_meta`, input-required rounds
   * answered); the result as the server sent it (2026-07-28: with its `resultType`, `task` for a
   * task the tasks extension created).
   */
  request(method: string, params?: Record<string, unknown>, options?: CallOptions): Promise<Record<string, unknown>> {
    return this.eraOf.request(method, params, options);
  }

  /**
   * Cancels every waiting request made with `tag` (`CallOptions.tag`), as an aborted `signal`
   * would: the server is told as the era says, each call rejects with `-31102`. For a caller
   * that gives no signal of its own per call, and rarely needs to cancel one.
   *
   * @returns How many requests were cancelled.
   * @example
   * const call = client.callTool('slow', {}, { tag: 7 });
   * client.cancelTagged(7, 'the caller went away');
   * await call.catch((error: McpClientError) => error.code); // -31102
   */
  cancelTagged(tag: unknown, reason: unknown = 'cancelled'): number {
    return this.peer.cancelTagged(tag, reason);
  }

  /** A result of a typed method as the legacy era gives it: a complete 2026-07-28 result without its `resultType`. */
  private async typed(method: string, params: Record<string, unknown>, options: CallOptions | undefined): Promise<Record<string, unknown>> {
    const result = await this.eraOf.request(method, params, options);
    if (result.resultType !== 'complete') return result;
    const { resultType: _complete, ...rest } = result;
    return rest;
  }

  /** Any notification of the client (`notifications/roots/list_changed` …). */
  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    return this.eraOf.notify(method, params);
  }

  /**
   * Listens to a notification of the server by method (`notifications/tools/list_changed`,
   * `notifications/resources/updated`, `notifications/message`, `notifications/progress` …;
   * `*` for all); returns the function that stops listening. Kept across `reconnect()`. On
   * 2026-07-28 a listener of a list change (or `*`) makes the client ask for those changes on its
   * `subscriptions/listen` request, for the lists whose capability says `listChanged`.
   */
  on(method: string, listener: NotificationListener): () => void {
    let set = this.listeners.get(method);
    if (!set) this.listeners.set(method, (set = new Set()));
    set.add(listener);
    this.eraOf?.watch(method);
    return () => void set.delete(listener);
  }

  /** Told once when the connection closes, with why (kept across `reconnect()`); returns the function that stops it. */
  onClose(listener: (error: McpClientError) => void): () => void {
    this.closeListeners.add(listener);
    return () => void this.closeListeners.delete(listener);
  }

  /** Opens the connection again (a new child, a new HTTP session), with the same options and listeners. */
  async reconnect(): Promise<void> {
    if (!this.peer.closeReason) await this.close();
    await this.open();
  }

  /** Closes the connection: every waiting call fails, the child is stopped (stdio), the session deleted (HTTP). */
  async close(): Promise<void> {
    this.eraOf?.close();
    await this.transportOf.close();
  }

  private async open(): Promise<void> {
    const options = this.options;
    const transport =
      typeof this.target === 'function'
        ? this.target()
        : 'url' in this.target
          ? new HttpClientTransport(this.target, options)
          : new StdioClientTransport(this.target, options);
    const report = (error: McpClientError): void => {
      try {
        options.onError?.(error);
      } catch {
        // The reporter is the caller's: what it throws has nowhere left to go, and must not end the process.
      }
    };
    const peer = new RpcPeer(transport, options.handlers, options, this.listeners, report);
    this.transportOf = transport;
    this.peer = peer;
    let told = false;
    await transport.start({
      message: (message, relatedTo) => peer.receive(message, relatedTo),
      failed: (requestId, error) => peer.fail(requestId, error),
      closed: (error) => {
        peer.close(error);
        if (told) return;
        told = true;
        this.eraOf?.close();
        for (const listener of [...this.closeListeners]) {
          try {
            listener(error);
          } catch (thrown) {
            report(new McpClientError(ClientErrorCode.ConnectionClosed, 'an onClose listener threw', undefined, { cause: thrown }));
          }
        }
      },
    });
    try {
      const { era, server } = await openEra(options.era, {
        peer,
        transport,
        capabilities: declaredCapabilities(options.handlers, options.capabilities),
        clientInfo: options.clientInfo,
        handlers: options.handlers,
        maxInputRounds: options.maxInputRounds,
        maxServerRequests: options.maxServerRequests,
        protocolVersion: options.protocolVersion,
        openTimeoutMs: options.openTimeoutMs,
        relistenDelayMs: options.reconnectDelayMs,
        report,
      });
      this.eraOf = era;
      this.description = server;
      // A reconnection asks again for what the listeners and subscriptions asked of the last connection.
      for (const method of this.listeners.keys()) era.watch(method);
      for (const uri of this.subscriptions) await era.subscribe(uri);
    } catch (error) {
      await transport.close();
      throw error instanceof McpClientError ? error : new McpClientError(ClientErrorCode.ConnectionClosed, String(error), undefined, { cause: error });
    }
  }
}

function readClientOptions(given: ClientOptions) {
  const read = readOptions(CLIENT_OPTIONS, given, { label: 'McpClient.connect', fail: optionTypeError });
  return {
    ...read,
    clientInfo: read.clientInfo ?? DEFAULT_CLIENT_INFO,
    handlers: read.handlers ?? {},
    maxBatchBytes: read.maxMessageBytes,
  };
}
