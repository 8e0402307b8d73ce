import { ErrorCode } from '@mcpkit/core';
import type {
  AuthInfo,
  CallToolResult,
  ClientCapabilities,
  GetPromptResult,
  Implementation,
  JsonRpcMessage,
  JsonRpcResponse,
  Logger,
  McpApp,
  RequestId,
  McpPrompt as Prompt,
  ReadResourceResult,
  McpResource as Resource,
  McpResourceTemplate as ResourceTemplate,
  McpTool as Tool,
} from '@mcpkit/core';
import {
  hasDefaultLogger,
  SUBSCRIPTION_ID,
  SUBSCRIPTIONS_ACKNOWLEDGED,
  SUBSCRIPTIONS_LISTEN,
  classify,
  type Connection,
  type Dispatcher,
  type ReceiveOptions,
  type DeprecatedEraName,
} from '@mcpkit/core/transport';
import type { ClientEra, ClientWire, InitializeInfo } from './eras/client-era';
import { clientEra } from './eras/client-eras';
import { RpcError } from './rpc-error';

export { RpcError };
export type { InitializeInfo };

/** Answers a server-to-client request (`sampling/createMessage`, `elicitation/create`, `roots/list`, `ping`). */
export type ClientRequestHandler = (params: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>>;

export interface TestClientOptions {
  /**
   * `legacy` (default): the legacy era (2025-11-25 and earlier), `initialize` and one session.
   * `modern`: the modern era (2026-07-28), `server/discover` and `_meta` on every request; the
   * handlers answer input-required results and the client retries, as a real modern client does.
   * `handshake` is the deprecated old name of `legacy` (one deprecation warning; removed in the
   * next release).
   */
  era?: 'legacy' | 'modern' | DeprecatedEraName;
  /** Revision to ask for in `initialize` (default 2025-11-25), or to claim on modern requests (default 2026-07-28). */
  protocolVersion?: string;
  /**
   * Client capabilities; by default derived from `handlers` (a `sampling/createMessage`
   * handler declares `sampling`, and so on).
   */
  capabilities?: ClientCapabilities;
  clientInfo?: Implementation;
  /** Scripted answers to the server's requests, by method. `ping` is answered by default. */
  handlers?: Record<string, ClientRequestHandler>;
  /** Modern era: give up after this many input-required rounds of one call (default 10). */
  maxRounds?: number;
  /**
   * The server's logger for this connection's requests. Default: the app's own, except that an
   * app on the default logger logs at `warn` here unless `LOG_LEVEL` is set, so a test run is
   * not flooded with a line per request.
   */
  logger?: Logger;
  /**
   * Who the client is, as a transport would establish it (a verified token's subject, scopes and
   * claims): guards, scopes and per-caller lists see this caller. Default: anonymous.
   */
  auth?: AuthInfo;
}

/**
 * The logger a test connection uses: the one given; else, when the app was given none and
 * `LOG_LEVEL` does not say otherwise, the app's logger at `warn`; else the app's (undefined).
 */
function connectionLogger(app: McpApp, given: Logger | undefined): Logger | undefined {
  if (given) return given;
  if (process.env.LOG_LEVEL || !hasDefaultLogger(app)) return undefined;
  const quiet = app.logger.child({});
  quiet.level = 'warn';
  return quiet;
}

/** A message the server sent that was not a response to one of ours. */
export interface ObservedMessage {
  method: string;
  params?: Record<string, unknown>;
  /** Set for server-to-client requests. */
  id?: RequestId;
  /** Set for the requests of a 2026-07-28 input-required result: their key. */
  inputKey?: string;
}

const CAPABILITY_OF: Record<string, string> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};

/**
 * An in-process MCP client bound to an app: no transport, the real dispatcher, typed results.
 *
 * @example
 * const client = await TestClient.connect(app);
 * const result = await client.callTool('add', { a: 1, b: 2 });
 * expect(result.content[0]).toEqual({ type: 'text', text: '3' });
 */
export class TestClient {
  private nextId = 1;
  /** Every notification and request the server sent us, in order. */
  readonly messages: ObservedMessage[] = [];
  /** The `initialize` result (modern era: the `server/discover` result in the same shape). */
  server!: InitializeInfo;
  private readonly handlers: Record<string, ClientRequestHandler>;
  private readonly sink = (message: JsonRpcMessage) => this.observe(message);
  private readonly acknowledgements = new Map<string | number, (message: ObservedMessage) => void>();
  private readonly wire: ClientWire = {
    send: (method, params) => this.send(method, params),
    notify: (method, params) => this.notify(method, params),
    answer: (requests) => this.answer(requests),
  };

  private constructor(
    private readonly dispatcher: Dispatcher,
    private readonly connection: Connection,
    handlers: Record<string, ClientRequestHandler>,
    /** How this client speaks its era. */
    private readonly speaks: ClientEra,
  ) {
    this.handlers = { ping: () => ({}), ...handlers };
    connection.setOutbound(this.sink);
  }

  /** Modern era: how many input-required rounds the last request took (0: answered at once). */
  get rounds(): number {
    return this.speaks.rounds;
  }

  /**
   * Opens a connection and performs the handshake, or on the modern era asks `server/discover`.
   *
   * @example
   * const modern = await TestClient.connect(app, { era: 'modern', handlers: { 'elicitation/create': () => ({ action: 'decline' }) } });
   */
  static async connect(app: McpApp, options: TestClientOptions = {}): Promise<TestClient> {
    const handlers = options.handlers ?? {};
    const capabilities: Record<string, unknown> = options.capabilities ? { ...options.capabilities } : {};
    if (!options.capabilities) for (const method of Object.keys(handlers)) if (CAPABILITY_OF[method]) capabilities[CAPABILITY_OF[method]] = {};
    const clientInfo = options.clientInfo ?? { name: 'mcpkit-test-client', version: '0.0.0' };
    const logger = connectionLogger(app, options.logger);
    const connection = app.connect(options.auth ? { kind: 'memory', auth: options.auth } : { kind: 'memory' }, logger ? { logger } : undefined);
    const client = new TestClient(app.dispatcher, connection, handlers, clientEra(options.era, options.maxRounds ?? 10));
    client.server = await client.speaks.open(client.wire, { protocolVersion: options.protocolVersion, capabilities, clientInfo });
    return client;
  }

  /** Which era this client speaks. */
  get era(): 'legacy' | 'modern' {
    return this.speaks.name;
  }

  /** Notifications the server sent with this method (e.g. `notifications/message`). */
  notifications(method: string): Array<Record<string, unknown>> {
    return this.messages.filter((message) => message.method === method && message.id === undefined).map((message) => message.params ?? {});
  }

  private observe(message: JsonRpcMessage): void {
    if (!('method' in message)) return;
    const observed: ObservedMessage = { method: message.method };
    if (message.params) observed.params = message.params;
    if ('id' in message) observed.id = message.id;
    this.messages.push(observed);
    if (message.method === SUBSCRIPTIONS_ACKNOWLEDGED) {
      const subscription = (message.params?._meta as Record<string, unknown> | undefined)?.[SUBSCRIPTION_ID] as string | number | undefined;
      if (subscription !== undefined) this.acknowledgements.get(subscription)?.(observed);
    }
    if (!('id' in message)) return;
    const id = message.id;
    const handler = this.handlers[message.method];
    // Answered asynchronously, as a real client would, through the same connection.
    void Promise.resolve()
      .then(() => (handler ? handler(message.params ?? {}) : Promise.reject(new RpcError(ErrorCode.MethodNotFound, `No test handler for ${message.method}`))))
      .then(
        (result) => this.deliver({ jsonrpc: '2.0', id, result }),
        (error: unknown) => {
          const rpc = error instanceof RpcError ? error : new RpcError(ErrorCode.InternalError, (error as Error).message);
          return this.deliver({ jsonrpc: '2.0', id, error: { code: rpc.code, message: rpc.message } });
        },
      );
  }

  /** One message to the server, through the dispatcher as every transport sends it. */
  private deliver(message: Record<string, unknown>, options?: ReceiveOptions): Promise<JsonRpcResponse | undefined> {
    return this.dispatcher.handle(classify(message), this.connection, options);
  }

  /**
   * Sends any request; resolves with its result or throws `RpcError`. On the modern era the
   * request carries `_meta`, and input-required results are answered and retried until complete.
   */
  async request<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T> {
    return (await this.speaks.request(this.wire, method, params)) as T;
  }

  private async send(method: string, params: Record<string, unknown> | undefined): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    // The server gets its own copy, as over a real transport: whatever it does with the message
    // (or a handler with its arguments) never reaches the caller's objects, and values JSON
    // cannot carry (undefined, functions, class instances) arrive as a real client sends them.
    const message =
      params === undefined
        ? { jsonrpc: '2.0', id, method }
        : { jsonrpc: '2.0', id, method, params: JSON.parse(JSON.stringify(params)) as Record<string, unknown> };
    const response = (await this.deliver(message, { send: this.sink })) as JsonRpcResponse | undefined;
    if (response === undefined) throw new RpcError(0, `No response to ${method} (cancelled?)`);
    if ('error' in response) throw new RpcError(response.error.code, response.error.message, response.error.data);
    return response.result as Record<string, unknown>;
  }

  /** The answers to one input-required round, from the same handlers the legacy era uses. */
  private async answer(requests: Record<string, { method: string; params?: Record<string, unknown> }>): Promise<Record<string, unknown>> {
    const answers: Record<string, unknown> = {};
    for (const [key, request] of Object.entries(requests)) {
      this.messages.push({ method: request.method, ...(request.params ? { params: request.params } : {}), inputKey: key });
      const handler = this.handlers[request.method];
      if (!handler) throw new RpcError(0, `No test handler for ${request.method} (input request "${key}")`);
      answers[key] = await handler(request.params ?? {});
    }
    return answers;
  }

  /** Sends a notification. */
  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    await this.deliver(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /**
   * Sets the client-visible log level: `logging/setLevel` on the legacy era; on the modern era
   * the level every following request carries in its `_meta`.
   */
  setLogLevel(level: string): Promise<void> {
    return this.speaks.setLogLevel(this.wire, level);
  }

  /** Subscribes to a resource's updates (`resources/subscribe`; legacy era). */
  async subscribe(uri: string): Promise<void> {
    await this.request('resources/subscribe', { uri });
  }

  /**
   * Modern era: opens `subscriptions/listen` with a filter; what it delivers lands in `messages`.
   * Resolves with the acknowledged filter and a `close` that cancels the subscription.
   *
   * @example
   * const listening = await client.listen({ toolsListChanged: true });
   * app.disable('tool', 'echo');
   * expect(client.notifications('notifications/tools/list_changed')).toHaveLength(1);
   * await listening.close();
   */
  async listen(notifications: Record<string, unknown>): Promise<{ acknowledged: Record<string, unknown>; close(): Promise<void> }> {
    const params = this.speaks.listenParams(notifications);
    const id = this.nextId++;
    const acked = new Promise<ObservedMessage>((resolve) => this.acknowledgements.set(id, resolve));
    const ended = this.deliver({ jsonrpc: '2.0', id, method: SUBSCRIPTIONS_LISTEN, params }, { send: this.sink });
    // Acknowledged first; a listen that ends before that was refused.
    const ack = await Promise.race([acked, ended.then(() => undefined)]);
    this.acknowledgements.delete(id);
    if (!ack) {
      const response = (await ended) as JsonRpcResponse | undefined;
      if (response && 'error' in response) throw new RpcError(response.error.code, response.error.message, response.error.data);
      throw new RpcError(0, 'subscriptions/listen ended without an acknowledgement');
    }
    return {
      acknowledged: (ack.params?.notifications ?? {}) as Record<string, unknown>,
      close: async () => {
        await this.notify('notifications/cancelled', this.speaks.cancelParams(id));
        await ended;
      },
    };
  }

  /** Asks for completions of a prompt argument or a template variable. */
  async complete(
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
    argument: { name: string; value: string },
    context?: Record<string, string>,
  ) {
    return (
      await this.request<{ completion: { values: string[]; total?: number; hasMore?: boolean } }>('completion/complete', {
        ref,
        argument,
        ...(context ? { context: { arguments: context } } : {}),
      })
    ).completion;
  }

  async listTools(): Promise<Tool[]> {
    return (await this.request<{ tools: Tool[] }>('tools/list')).tools;
  }

  /** Calls a tool; a tool failure is a result with `isError: true`, not a throw. Pass `progressToken` to receive progress. */
  callTool(name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>): Promise<CallToolResult> {
    return this.request<CallToolResult>('tools/call', meta ? { name, arguments: args, _meta: meta } : { name, arguments: args });
  }

  async listResources(): Promise<Resource[]> {
    return (await this.request<{ resources: Resource[] }>('resources/list')).resources;
  }

  async listResourceTemplates(): Promise<ResourceTemplate[]> {
    return (await this.request<{ resourceTemplates: ResourceTemplate[] }>('resources/templates/list')).resourceTemplates;
  }

  readResource(uri: string): Promise<ReadResourceResult> {
    return this.request<ReadResourceResult>('resources/read', { uri });
  }

  async listPrompts(): Promise<Prompt[]> {
    return (await this.request<{ prompts: Prompt[] }>('prompts/list')).prompts;
  }

  getPrompt(name: string, args: Record<string, string> = {}): Promise<GetPromptResult> {
    return this.request<GetPromptResult>('prompts/get', { name, arguments: args });
  }

  /** Cancels in-flight requests and ends the connection. */
  close(): void {
    this.connection.close();
  }
}

/** The text of a result's first text block: the usual thing a test asserts on. */
export function firstText(result: CallToolResult | ReadResourceResult): string {
  if ('content' in result) {
    const block = result.content.find((item) => item.type === 'text');
    return block && block.type === 'text' ? block.text : '';
  }
  const contents = result.contents.find((item) => 'text' in item);
  return contents && 'text' in contents ? contents.text : '';
}
