import { McpClient, McpClientError, type ClientTarget } from '@mcpkit/client';

/**
 * Connects to a server (a command to spawn, or an HTTP endpoint), calls one tool with progress
 * and a timeout, and answers the questions the server asks on the way.
 */
export async function callOnce(target: ClientTarget, tool: string, input: Record<string, unknown>, progress: number[] = []): Promise<string> {
  const client = await McpClient.connect(target, {
    clientInfo: { name: 'docs-client', version: '1.0.0' },
    // One handler per kind of question: each declares its capability, on either era.
    handlers: {
      'elicitation/create': () => ({ action: 'accept', content: { response: 'yes' } }),
      'roots/list': () => ({ roots: [{ uri: 'file:///projects/site', name: 'site' }] }),
    },
  });
  try {
    const result = await client.callTool(tool, input, { timeoutMs: 10_000, onProgress: (update) => progress.push(update.progress) });
    return result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
  } catch (error) {
    // The server's JSON-RPC error, or one the client found (a timeout, a closed connection …).
    if (error instanceof McpClientError) return `failed (${error.code}): ${error.message}`;
    throw error;
  } finally {
    await client.close();
  }
}

/** An HTTP endpoint behind OAuth: the token comes from your store, fresh when the server said 401. */
export function protectedEndpoint(url: string, tokens: { current(): string; refresh(): Promise<string> }): ClientTarget {
  return { url, token: ({ refused }) => (refused ? tokens.refresh() : tokens.current()) };
}
