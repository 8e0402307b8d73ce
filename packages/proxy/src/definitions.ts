import { ClientErrorCode, type CallOptions, type McpClient } from '@mcpkit/client';
import {
  McpError,
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  type CallToolResult,
  type JsonSchema,
  type PromptArgument,
  type Provider,
  type RequestContext,
  type ToolAnnotations,
} from '@mcpkit/core';
import { expandTemplate } from './expand-template';
import { tracedHop } from './trace-hop';
import type { RemoteItem } from './mirror';
import { ProgressRelay } from './progress-relay';
import type { QuestionRelay, RelayedCall } from './relay';
import { shapeProblem } from './result-shape';
import { upstreamFailure } from './upstream-failure';

/** JSON-RPC "internal error": what a resource or prompt answers when the remote could not. */
const INTERNAL = -32603;
/** The client's own codes (a closed connection, a timeout …) sit in -31100…-31199; the remote's are JSON-RPC's. */
const isClientCode = (code: number) => code <= -31100 && code > -31200;
/**
 * The client's codes that say the connection itself failed (closed, a broken stream, an HTTP
 * status without an answer): an HTTP remote that went away shows only so, and is reconnected.
 */
const CONNECTION_LOST = new Set<number>([ClientErrorCode.ConnectionClosed, ClientErrorCode.InvalidResponse, ClientErrorCode.HttpStatus]);

/** Runs one call of the remote for one call of the gateway. */
export type RemoteCall = <T>(ctx: RequestContext, method: string, what: string, call: (client: McpClient, options: CallOptions) => Promise<T>) => Promise<T>;

/** A question the remote asked could not be put to the gateway's caller: the gateway's call ends with it. */
class QuestionEnded {
  constructor(readonly error: unknown) {}
}

/**
 * The remote call behind one gateway call: the caller's cancellation, progress and trace go to
 * the remote, and the remote's questions come back to the caller (`QuestionRelay`).
 */
export function remoteCaller(
  current: () => McpClient | undefined,
  relay: QuestionRelay,
  lost: (client: McpClient, error: Error) => void,
  report: (error: Error) => void,
): RemoteCall {
  return async <T>(ctx: RequestContext, method: string, what: string, call: (client: McpClient, options: CallOptions) => Promise<T>): Promise<T> => {
    const client = current();
    if (client === undefined) throw new McpError(INTERNAL, `${what}: the upstream server is not connected (the proxy is reconnecting)`);
    // Awaited only when a refusal is pending: an await per call is a promise and a turn more.
    if (relay.behind) await relay.caughtUp(client);
    // A question that ends the gateway's call cancels the remote call by its tag, and so does the
    // caller's cancellation, on either era: no AbortSignal is made per call. A 2026-07-28 call may
    // be several requests (input-required rounds): the relay sends no retry once `cancelled` is set.
    let fail: (error: unknown) => void = () => undefined;
    const relayed: RelayedCall = { ctx, fail: (error) => fail(error), cancelled: false };
    const registration = relay.open(relayed);
    const options: CallOptions = { tag: registration.tag };
    const progress = ctx.progressToken === undefined ? undefined : new ProgressRelay((update) => ctx.progress(update.progress, update.total, update.message));
    if (progress !== undefined) options.onProgress = progress.update;
    let settled = false;
    let stopRelay: (() => void) | undefined;
    try {
      // One trace across the hop: the remote continues the caller's, under the gateway's span when traced.
      const sent = tracedHop(method, ctx, (meta) => call(client, meta === undefined ? options : { ...options, _meta: meta }));
      // After the request is waiting, so that a caller that cancelled already cancels it at once.
      stopRelay = ctx.onCancel((reason) => {
        relayed.cancelled = true;
        client.cancelTagged(registration.tag, reason);
      });
      // One promise settles the gateway's call: the remote's answer, or a question that ended it.
      const result = await new Promise<T>((resolve, reject) => {
        fail = (error) => reject(new QuestionEnded(error));
        sent.then(resolve, reject);
      });
      settled = true;
      return result;
    } catch (error) {
      if (error instanceof QuestionEnded) throw error.error;
      settled = true;
      if (ctx.signal.aborted) throw error;
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'number' && CONNECTION_LOST.has(code)) lost(client, error as Error);
      else if (typeof code === 'number' && isClientCode(code)) report(error as Error);
      const data = (error as { data?: unknown }).data;
      if (typeof code === 'number' && !isClientCode(code)) throw new McpError(code, (error as Error).message, data);
      throw new McpError(INTERNAL, `${what}: the upstream server failed: ${upstreamFailure(typeof code === 'number' ? code : 0, data)}`);
    } finally {
      stopRelay?.();
      progress?.flush();
      registration.done();
      // A question that ended the gateway's call leaves the remote call waiting: cancel it.
      if (!settled) client.cancelTagged(registration.tag, `${what}: the gateway's call ended`);
    }
  };
}

const common = (entry: Record<string, unknown>) => ({
  ...(typeof entry.title === 'string' ? { title: entry.title } : {}),
  ...(typeof entry.description === 'string' ? { description: entry.description } : {}),
});

/** A tool's failure is its caller's `isError` result (a model can read it); a protocol error stays one. */
async function toolResult(run: () => Promise<CallToolResult>, ctx: RequestContext): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    if (ctx.signal.aborted || !(error instanceof McpError) || error.code !== INTERNAL) throw error;
    return { isError: true, content: [{ type: 'text', text: error.message }] };
  }
}

/** The remote's result, once it has the shape its method promises; otherwise the call fails (the caller is never handed a malformed result). */
function checked<T>(kind: 'tool' | 'prompt' | 'resource', what: string, result: T): T {
  const problem = shapeProblem(kind, result);
  if (problem !== undefined) throw new McpError(INTERNAL, `${what}: the upstream server answered a result of the wrong shape (${problem})`);
  return result;
}

/** The gateway's definition of one remote item: same name, schema and description, its handler a remote call. */
export function definitionOf(item: RemoteItem, remote: RemoteCall): Provider {
  const { entry, key } = item;
  switch (item.kind) {
    case 'tool':
      return defineTool(
        {
          name: key,
          ...common(entry),
          inputSchema: (entry.inputSchema as JsonSchema | undefined) ?? { type: 'object' },
          ...(entry.outputSchema === undefined ? {} : { outputSchema: entry.outputSchema as JsonSchema }),
          ...(entry.annotations === undefined ? {} : { annotations: entry.annotations as ToolAnnotations }),
        },
        (args, ctx) =>
          toolResult(
            () =>
              remote(ctx, 'tools/call', `tool ${key}`, async (client, options) => checked('tool', `tool ${key}`, await client.callTool(key, args, options))),
            ctx,
          ),
      );
    case 'prompt':
      return definePrompt({ name: key, ...common(entry), arguments: (entry.arguments as PromptArgument[] | undefined) ?? [] }, (args, ctx) =>
        remote(ctx, 'prompts/get', `prompt ${key}`, async (client, options) => checked('prompt', `prompt ${key}`, await client.getPrompt(key, args, options))),
      );
    case 'resource':
      return defineResource(
        { name: String(entry.name ?? key), uri: key, ...common(entry), ...(typeof entry.mimeType === 'string' ? { mimeType: entry.mimeType } : {}) },
        (request, ctx) =>
          remote(ctx, 'resources/read', `resource ${key}`, async (client, options) =>
            checked('resource', `resource ${key}`, await client.readResource(request.uri, options)),
          ),
      );
    case 'resourceTemplate':
      return defineResourceTemplate(
        { name: String(entry.name ?? key), uriTemplate: key, ...common(entry), ...(typeof entry.mimeType === 'string' ? { mimeType: entry.mimeType } : {}) },
        (variables, ctx) =>
          remote(ctx, 'resources/read', `resource template ${key}`, async (client, options) =>
            checked(
              'resource',
              `resource template ${key}`,
              await client.readResource(expandTemplate(key, variables as Record<string, string | string[]>), options),
            ),
          ),
      );
  }
}
