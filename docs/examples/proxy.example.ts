import { createApp, type Guard, type McpApp, type RequestContext } from '@mcpkit/core';
import { proxy, type McpProxy, type ProxyTarget } from '@mcpkit/proxy';

/** The gateway's own rule, applied before any call reaches the remote. */
class SignedInOnly implements Guard {
  canActivate(ctx: RequestContext): boolean {
    return ctx.auth !== undefined || ctx.transport.kind !== 'http';
  }
}

/**
 * A gateway that offers another MCP server's tools, prompts and resources under `everything_`,
 * behind its own guards (and, when configured, its auth, rate limits and audit).
 */
export async function createGateway(target: ProxyTarget): Promise<{ app: McpApp; upstream: McpProxy }> {
  const upstream = await proxy(target, {
    // Leave out what the gateway's clients should not see.
    exclude: [/^test_input_required_/, 'test_missing_capability'],
    // A remote that goes away is reconnected after 0.5 s, 1 s, 2 s … (at most 30 s apart).
    reconnectDelayMs: 500,
    onError: (error) => console.error(`upstream: ${error.message}`),
  });
  const app = createApp({
    name: 'gateway',
    version: '1.0.0',
    providers: [],
    guards: [SignedInOnly],
    imports: [{ app: upstream.app, prefix: 'everything' }],
  });
  return { app, upstream };
}

/** The remote as a child process of the gateway: spawned, restarted when it dies. */
export const everythingOverStdio = (main: string): ProxyTarget => ({ command: process.execPath, args: [main, 'stdio'], stderr: 'pipe' });
