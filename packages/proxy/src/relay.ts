import { McpClientError, type ServerRequestContext, type ServerRequestHandlers } from '@mcpkit/client';
import type { JsonSchema, RequestContext, SamplingRequest } from '@mcpkit/core';

/** One call of the gateway being served by the remote: the caller's context, and how to end it. */
interface RelayedCall {
  ctx: RequestContext;
  /** Ends the gateway's handler with the error a question raised (a 2026-07-28 input-required round ends so). */
  fail(error: unknown): void;
}

/** The wire code of a question the proxy cannot relay (JSON-RPC "invalid request"). */
const UNRELATED = -32600;

/**
 * Ties the remote's questions (elicitation, sampling, roots) to the gateway call they belong to,
 * by the `tag` each remote call carries, and asks the gateway's caller through its `ctx`.
 */
export class QuestionRelay {
  private readonly calls = new Map<number, RelayedCall>();
  private next = 0;

  /** Registers a call; returns its tag and the function that forgets it. */
  open(call: RelayedCall): { tag: number; done(): void } {
    const tag = ++this.next;
    this.calls.set(tag, call);
    return { tag, done: () => void this.calls.delete(tag) };
  }

  get handlers(): ServerRequestHandlers {
    return {
      'elicitation/create': (params, context) =>
        this.ask(context, (ctx) =>
          params.mode === 'url'
            ? ctx.elicitUrl(String(params.message ?? ''), String(params.url ?? '')).then(({ action }) => ({ action }))
            : ctx.elicit(String(params.message ?? ''), (params.requestedSchema ?? { type: 'object', properties: {} }) as JsonSchema),
        ),
      'sampling/createMessage': (params, context) => this.ask(context, (ctx) => ctx.sample(params as unknown as SamplingRequest)),
      'roots/list': (_params, context) => this.ask(context, async (ctx) => ({ roots: await ctx.roots() })),
    };
  }

  private async ask(context: ServerRequestContext, question: (ctx: RequestContext) => Promise<unknown>): Promise<unknown> {
    const call = this.callOf(context);
    try {
      return await question(call.ctx);
    } catch (error) {
      // The gateway's handler ends with it: on 2026-07-28 this is how the caller gets the question.
      // After this answer is on its way, so that the caller's retry rarely reaches the remote
      // before it (a legacy remote shares one pending roots/list between its calls: a retry that
      // joins it gets this error; see docs/proxy.md, "Limits").
      setImmediate(() => call.fail(error));
      throw new McpClientError(UNRELATED, `the gateway's client did not answer ${context.method}: ${(error as Error).message}`);
    }
  }

  /**
   * The call a question belongs to: the one its tag names, or, where the protocol relates none
   * (legacy stdio), the only call in flight. Anything else cannot be asked of anyone.
   */
  private callOf(context: ServerRequestContext): RelayedCall {
    const tag = context.call?.tag;
    const tagged = typeof tag === 'number' ? this.calls.get(tag) : undefined;
    if (tagged !== undefined) return tagged;
    if (context.call === undefined && this.calls.size === 1) return [...this.calls.values()][0]!;
    throw new McpClientError(UNRELATED, `${context.method} is not related to a call the proxy is serving, so it cannot be relayed to a client`);
  }
}
