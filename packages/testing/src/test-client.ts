import type {
  CallToolResult,
  ClientCapabilities,
  Connection,
  GetPromptResult,
  Implementation,
  JsonRpcMessage,
  JsonRpcResponse,
  McpApp,
  McpPrompt as Prompt,
  ReadResourceResult,
  McpResource as Resource,
  McpResourceTemplate as ResourceTemplate,
  ServerCapabilities,
  McpTool as Tool,
} from '@mcpkit/core';

/** A JSON-RPC error answered by the app, thrown by `TestClient` methods. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/** Answers a server-to-client request (`sampling/createMessage`, `elicitation/create`, `roots/list`, `ping`). */
export type ClientRequestHandler = (params: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>>;

export interface TestClientOptions {
  /** Revision to ask for in `initialize` (default 2025-11-25). */
  protocolVersion?: string;
  /**
   * Client capabilities; by default derived from `handlers` (a `sampling/createMessage`
   * handler declares `sampling`, and so on).
   */
  capabilities?: ClientCapabilities;
  clientInfo?: Implementation;
  /** Scripted answers to the server's requests, by method. `ping` is answered by default. */
  handlers?: Record<string, ClientRequestHandler>;
}

/** A message the server sent that was not a response to one of ours. */
export interface ObservedMessage {
  method: string;
  params?: Record<string, unknown>;
  /** Set for server-to-client requests. */
  id?: string | number;
}

const CAPABILITY_OF: Record<string, string> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};

/** What the app answered to `initialize`. */
export interface InitializeInfo {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
}

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
  /** The `initialize` result. */
  server!: InitializeInfo;
  private readonly handlers: Record<string, ClientRequestHandler>;
  private readonly sink = (message: JsonRpcMessage) => this.observe(message);

  private constructor(
    private readonly connection: Connection,
    handlers: Record<string, ClientRequestHandler>,
  ) {
    this.handlers = { ping: () => ({}), ...handlers };
    connection.setOutbound(this.sink);
  }

  /** Opens a connection and performs the handshake. */
  static async connect(app: McpApp, options: TestClientOptions = {}): Promise<TestClient> {
    const handlers = options.handlers ?? {};
    const capabilities: Record<string, unknown> = options.capabilities ? { ...options.capabilities } : {};
    if (!options.capabilities) for (const method of Object.keys(handlers)) if (CAPABILITY_OF[method]) capabilities[CAPABILITY_OF[method]] = {};
    const client = new TestClient(app.connect({ kind: 'memory' }), handlers);
    client.server = await client.request<InitializeInfo>('initialize', {
      protocolVersion: options.protocolVersion ?? '2025-11-25',
      capabilities,
      clientInfo: options.clientInfo ?? { name: 'mcpkit-test-client', version: '0.0.0' },
    });
    await client.notify('notifications/initialized');
    return client;
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
    if (!('id' in message)) return;
    const id = message.id;
    const handler = this.handlers[message.method];
    // Answered asynchronously, as a real client would, through the same connection.
    void Promise.resolve()
      .then(() => (handler ? handler(message.params ?? {}) : Promise.reject(new RpcError(-32601, `No test handler for ${message.method}`))))
      .then(
        (result) => this.connection.receive({ jsonrpc: '2.0', id, result }),
        (error: unknown) => {
          const rpc = error instanceof RpcError ? error : new RpcError(-32603, (error as Error).message);
          return this.connection.receive({ jsonrpc: '2.0', id, error: { code: rpc.code, message: rpc.message } });
        },
      );
  }

  /** Sends any request; resolves with its result or throws `RpcError`. */
  async request<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T> {
    const id = this.nextId++;
    const response = (await this.connection.receive(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params }, { send: this.sink })) as
      | JsonRpcResponse
      | undefined;
    if (response === undefined) throw new RpcError(0, `No response to ${method} (cancelled?)`);
    if ('error' in response) throw new RpcError(response.error.code, response.error.message, response.error.data);
    return response.result as T;
  }

  /** Sends a notification. */
  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    await this.connection.receive(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /** Sets the client-visible log level (`logging/setLevel`). */
  async setLogLevel(level: string): Promise<void> {
    await this.request('logging/setLevel', { level });
  }

  /** Subscribes to a resource's updates (`resources/subscribe`). */
  async subscribe(uri: string): Promise<void> {
    await this.request('resources/subscribe', { uri });
  }

  /** Asks for completions of a prompt argument or a template variable. */
  async complete(ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }, argument: { name: string; value: string }, context?: Record<string, string>) {
    return (await this.request<{ completion: { values: string[]; total?: number; hasMore?: boolean } }>('completion/complete', { ref, argument, ...(context ? { context: { arguments: context } } : {}) })).completion;
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
