import { Prompt, Tool, type RequestContext } from '@mcpkit/core';

const CONFIRM_FORM = { type: 'object', properties: { ok: { type: 'boolean' } } };
const NAME_FORM = { type: 'object', properties: { name: { type: 'string', description: 'Your name' } }, required: ['name'] };
const CONTEXT_FORM = { type: 'object', properties: { context: { type: 'string', description: 'What should the prompt know?' } } };

function textOf(content: unknown): string {
  const block = Array.isArray(content) ? content[0] : content;
  return typeof block === 'object' && block !== null && 'text' in block ? String((block as { text: unknown }).text) : 'no text';
}

/**
 * The 2026-07-28 input-required (MRTR) scenarios. Each handler simply asks with ctx.elicit,
 * ctx.sample or ctx.roots: on a modern request mcpkit ends the round with an input-required
 * result and runs the handler again when the client retries with the answers.
 */
export class InputRequiredTools {
  @Tool({ name: 'test_input_required_result_elicitation', description: 'Asks the user for a name (input-required result)', input: null })
  async elicitation(_input: unknown, ctx: RequestContext): Promise<string> {
    const answer = await ctx.elicit('What is your name?', NAME_FORM, { key: 'user_name' });
    return answer.action === 'accept' ? `Hello, ${String(answer.content.name)}!` : `No name (${answer.action})`;
  }

  @Tool({ name: 'test_input_required_result_sampling', description: "Asks the client's model (input-required result)", input: null })
  async sampling(_input: unknown, ctx: RequestContext): Promise<string> {
    const result = await ctx.sample('Say hello', { maxTokens: 50 });
    return `Model said: ${textOf(result.content)}`;
  }

  @Tool({ name: 'test_input_required_result_list_roots', description: "Asks for the client's roots (input-required result)", input: null })
  async listRoots(_input: unknown, ctx: RequestContext): Promise<string> {
    const roots = await ctx.roots();
    return `Roots: ${roots.map((root) => root.uri).join(', ') || 'none'}`;
  }

  @Tool({ name: 'test_input_required_result_request_state', description: 'Carries its progress in requestState', input: null })
  async requestState(_input: unknown, ctx: RequestContext): Promise<string> {
    const answer = await ctx.elicit('Confirm to continue', CONFIRM_FORM);
    return `Confirmed: ${answer.action}`;
  }

  @Tool({ name: 'test_input_required_result_multiple_inputs', description: 'Asks for several inputs at once', input: null })
  async multipleInputs(_input: unknown, ctx: RequestContext): Promise<string> {
    const [person, reply, roots] = await Promise.all([ctx.elicit('What is your name?', NAME_FORM), ctx.sample('Say hello', { maxTokens: 50 }), ctx.roots()]);
    return `${person.action === 'accept' ? String(person.content.name) : person.action} / ${textOf(reply.content)} / ${roots.length} roots`;
  }

  @Tool({ name: 'test_input_required_result_multi_round', description: 'Asks twice, one question per round', input: null })
  async multiRound(_input: unknown, ctx: RequestContext): Promise<string> {
    const first = await ctx.elicit('Step 1: your name?', NAME_FORM, { key: 'step1' });
    const second = await ctx.elicit('Step 2: confirm?', CONFIRM_FORM, { key: 'step2' });
    return `Rounds done: ${first.action}, ${second.action}`;
  }

  @Tool({ name: 'test_input_required_result_tampered_state', description: 'Rejects a requestState that was altered', input: null })
  async tampered(_input: unknown, ctx: RequestContext): Promise<string> {
    const answer = await ctx.elicit('Confirm', CONFIRM_FORM);
    return `Confirmed: ${answer.action}`;
  }

  @Tool({ name: 'test_input_required_result_capabilities', description: 'Asks only for what the client declared', input: null })
  async capabilities(_input: unknown, ctx: RequestContext): Promise<string> {
    const declared = ctx.client.capabilities;
    if (declared.elicitation) {
      const answer = await ctx.elicit('What is your name?', NAME_FORM);
      return `elicitation: ${answer.action}`;
    }
    if (declared.sampling) return `sampling: ${textOf((await ctx.sample('Say hello', { maxTokens: 50 })).content)}`;
    if (declared.roots) return `roots: ${(await ctx.roots()).length}`;
    return 'The client declared no input capabilities, so nothing was asked';
  }

  @Prompt({ name: 'test_input_required_result_prompt', description: 'A prompt that asks for context first (input-required result)', input: null })
  async prompt(_args: unknown, ctx: RequestContext): Promise<string> {
    const answer = await ctx.elicit('What context should the prompt use?', CONTEXT_FORM, { key: 'user_context' });
    return `Use this context: ${answer.action === 'accept' ? String(answer.content.context ?? '') : 'none'}`;
  }
}
