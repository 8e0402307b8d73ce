import { createApp, type McpApp } from '@mcpkit/core';
import { fromOpenApi, type OpenApiSource } from '@mcpkit/openapi';
import { proxy } from '@mcpkit/proxy';

/** What one gateway puts behind one endpoint. */
export interface GatewaySources {
  /** A team's app, mounted as it is: its tools become `notes_*`, its resources `notes+<uri>`. */
  notes: McpApp;
  /** Another MCP server's entry point, spawned on stdio and proxied as `everything_*`. */
  everythingMain: string;
  /** A REST service and its OpenAPI document (a URL, a file, an object): its operations become `rest_<operationId>`. */
  rest?: { baseUrl: string; document: OpenApiSource };
}

/**
 * One endpoint for a mounted app, a proxied server and a REST API, behind the gateway's own
 * pipeline: no call reaches any of them without a caller (`requireAuth`), and each writes the
 * gateway's request line and spans before it crosses the hop.
 */
export async function createGateway({ notes, everythingMain, rest }: GatewaySources): Promise<{ app: McpApp; close(): Promise<void> }> {
  const everything = await proxy({ command: process.execPath, args: [everythingMain, 'stdio'], stderr: 'pipe' }, { exclude: [/^test_input_required_/] });
  try {
    const operations = rest ? await fromOpenApi(rest.document, { baseUrl: rest.baseUrl, namePrefix: 'rest_' }) : [];
    const app = createApp({
      name: 'gateway',
      version: '1.0.0',
      providers: operations,
      requireAuth: true,
      imports: [
        { app: notes, prefix: 'notes' },
        { app: everything.app, prefix: 'everything' },
      ],
    });
    return { app, close: () => everything.close() };
  } catch (error) {
    await everything.close();
    throw error;
  }
}
