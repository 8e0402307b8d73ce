import type {
  CallToolResult,
  ClientCapabilities,
  Connection,
  GetPromptResult,
  Implementation,
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

export interface TestClientOptions {
  /** Revision to ask for in `initialize` (default 2025-11-25). */
  protocolVersion?: string;
  capabilities?: ClientCapabilities;
  clientInfo?: Implementation;
}

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

  private constructor(
    private readonly connection: Connection,
    /** The `initialize` result. */
    readonly server: InitializeInfo,
  ) {}

  /** Opens a connection and performs the handshake. */
  static async connect(app: McpApp, options: TestClientOptions = {}): Promise<TestClient> {
    const connection = app.connect({ kind: 'memory' });
    const response = (await connection.receive({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: options.protocolVersion ?? '2025-11-25',
        capabilities: options.capabilities ?? {},
        clientInfo: options.clientInfo ?? { name: 'mcpkit-test-client', version: '0.0.0' },
      },
    })) as JsonRpcResponse;
    if ('error' in response) throw new RpcError(response.error.code, response.error.message, response.error.data);
    await connection.receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return new TestClient(connection, response.result as unknown as InitializeInfo);
  }

  /** Sends any request; resolves with its result or throws `RpcError`. */
  async request<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T> {
    const id = this.nextId++;
    const response = (await this.connection.receive(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params })) as
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

  async listTools(): Promise<Tool[]> {
    return (await this.request<{ tools: Tool[] }>('tools/list')).tools;
  }

  /** Calls a tool; a tool failure is a result with `isError: true`, not a throw. */
  callTool(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    return this.request<CallToolResult>('tools/call', { name, arguments: args });
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
