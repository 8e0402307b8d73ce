import { ClientErrorCode, McpClientError, type McpClient, type ServerRequestContext, type ServerRequestHandlers } from '@mcpkit/client';
import type { JsonSchema, RequestContext, SamplingRequest } from '@mcpkit/core';
import { RequestTable } from '@mcpkit/core/transport';

/** One call of the gateway being served by the remote: the caller's context, and how to end it. */
export interface RelayedCall {
  ctx: RequestContext;
  /** Ends the gateway's handler with the error a question raised (a 2026-07-28 input-required round ends so). */
  fail(error: unknown): void;
  /** The caller cancelled: a question answered after that fails its round, so no retry goes to the remote. */
  cancelled?: boolean;
}

/** The longest the calls after a refusal wait for the remote's `ping`: a remote that never answers it delays them this much, then they go. */
const CAUGHT_UP_MS = 2_000;

/** The wire code of a question the proxy cannot relay (JSON-RPC "invalid request"). */
const UNRELATED = -32600;

/**
 * Ties the remote's questions (elicitation, sampling, roots) to the gateway call they belong to,
 * by the `tag` each remote call carries, and asks the gateway's caller through its `ctx`.
 */
export class QuestionRelay {
  // Not a Map: a call each way in and out of one keeps V8's obsolete tables, and what they hold, alive (RequestTable).
  private readonly calls = new RequestTable<RelayedCall>();
  private next = 0;
  /** Set when a question was refused: the next calls wait for the remote to have read the refusal. */
  private refused = false;
  private barrier: Promise<void> | undefined;

  /**
   * Resolves once the remote has read every refusal sent so far. A legacy remote shares one
   * pending `roots/list` between its calls, and reads a chunk of its input at once: a caller's
   * retry written just after the refusal of its first round would join that pending question and
   * get the refusal. A `ping` answered means the remote took in what came before it; only a
   * legacy remote after a refusal pays that round trip.
   */
  /** Whether a call must wait for `caughtUp` (a refusal was sent, or its ping is out); most never do. */
  get behind(): boolean {
    return this.refused || this.barrier !== undefined;
  }

  caughtUp(client: McpClient): Promise<void> {
    if (this.refused) {
      this.refused = false;
      if (client.era === 'legacy') {
        const barrier: Promise<void> = client
          .request('ping', undefined, { timeoutMs: CAUGHT_UP_MS })
          .then(
            () => undefined,
            () => undefined,
          )
          .finally(() => {
            if (this.barrier === barrier) this.barrier = undefined;
          });
        this.barrier = barrier;
      }
    }
    return this.barrier ?? Promise.resolve();
  }

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
    let answer: unknown;
    try {
      answer = await question(call.ctx);
    } catch (error) {
      // The gateway's handler ends with it: on 2026-07-28 this is how the caller gets the question.
      // After this answer is on its way; the caller's retry waits for the remote to read it (`caughtUp`).
      this.refused = true;
      setImmediate(() => call.fail(error));
      throw new McpClientError(UNRELATED, `the gateway's client did not answer ${context.method}: ${(error as Error).message}`);
    }
    // The remote call is cancelled by its tag, which a round between its requests escapes: this ends the round.
    if (call.cancelled) throw new McpClientError(ClientErrorCode.RequestCancelled, `${context.method} was answered after the gateway's caller cancelled`);
    return answer;
  }

  /**
   * The call a question belongs to: the one its tag names, or, where the protocol relates none
   * (legacy stdio), the only call in flight. Anything else cannot be asked of anyone.
   */
  private callOf(context: ServerRequestContext): RelayedCall {
    const tag = context.call?.tag;
    const tagged = typeof tag === 'number' ? this.calls.get(tag) : undefined;
    if (tagged !== undefined) return tagged;
    if (context.call === undefined && this.calls.size === 1) return this.calls.values()[0]!;
    throw new McpClientError(UNRELATED, `${context.method} is not related to a call the proxy is serving, so it cannot be relayed to a client`);
  }
}
