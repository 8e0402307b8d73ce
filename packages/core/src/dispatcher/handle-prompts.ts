import { clip } from '../errors/clip';
import { InvalidParamsError } from '../errors/mcp-error';
import { METHOD } from '../protocol/methods';
import { optionalArguments, requireString } from '../model/read-params';
import type { GetPromptResult } from '../protocol/mcp-types';
import { toGetPromptResult } from '../results/prompt-result';
import type { PromptDefinition } from '../scanner/definitions';
import type { HandlerContext } from './handler-context';
import type { Pipeline } from '../pipeline/compile-pipeline';

/** `prompts/get`: unknown prompts and bad arguments are `-32602` (prompts spec, "Error Handling"). */
export async function getPrompt(
  prompts: ReadonlyMap<string, PromptDefinition>,
  params: Record<string, unknown>,
  ctx: HandlerContext,
  pipelines?: ReadonlyMap<string, Pipeline>,
): Promise<GetPromptResult> {
  const name = requireString(params, 'name', METHOD.PROMPTS_GET);
  const args = optionalArguments(params, METHOD.PROMPTS_GET);
  const prompt = prompts.get(name);
  if (!prompt) throw unknownPrompt(name);
  const pipeline = pipelines?.get(name);
  if (pipeline === undefined) return toGetPromptResult(await validatedCall(prompt, args, ctx), prompt.entry.description);
  if ((await pipeline.authorize(ctx, 'get')) === 'hidden') {
    ctx.outcome = 'hidden';
    throw unknownPrompt(name);
  }
  const value = await pipeline.run(ctx, 'get', () => validatedCall(prompt, args, ctx));
  return toGetPromptResult(value, prompt.entry.description);
}

/** The answer to a name no prompt has, and to a prompt hidden from this caller. */
export function unknownPrompt(name: string): InvalidParamsError {
  return new InvalidParamsError(`Unknown prompt: ${clip(name)}`);
}

async function validatedCall(prompt: PromptDefinition, args: Record<string, unknown>, ctx: HandlerContext): Promise<unknown> {
  let outcome = prompt.parseArguments(args);
  if (outcome instanceof Promise) outcome = await outcome;
  if (!outcome.ok) {
    throw new InvalidParamsError(`Invalid arguments for prompt ${prompt.name}: ${outcome.problems.join('; ')}`, { problems: outcome.problems });
  }
  return prompt.invoke(outcome.value, ctx);
}
