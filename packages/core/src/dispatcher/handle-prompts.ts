import { clip } from '../errors/clip';
import { InvalidParamsError } from '../errors/mcp-error';
import { METHOD } from '../protocol/methods';
import { optionalArguments, requireString } from './read-params';
import type { GetPromptResult } from '../protocol/mcp-types';
import { toGetPromptResult } from '../results/prompt-result';
import type { PromptDefinition } from '../scanner/definitions';
import type { RequestContext } from './request-context';

/** `prompts/get`: unknown prompts and bad arguments are `-32602` (prompts spec, "Error Handling"). */
export async function getPrompt(
  prompts: ReadonlyMap<string, PromptDefinition>,
  params: Record<string, unknown>,
  ctx: RequestContext,
): Promise<GetPromptResult> {
  const name = requireString(params, 'name', METHOD.PROMPTS_GET);
  const args = optionalArguments(params, METHOD.PROMPTS_GET);
  const prompt = prompts.get(name);
  if (!prompt) throw new InvalidParamsError(`Unknown prompt: ${clip(name)}`);
  let outcome = prompt.parseArguments(args);
  if (outcome instanceof Promise) outcome = await outcome;
  if (!outcome.ok) {
    throw new InvalidParamsError(`Invalid arguments for prompt ${name}: ${outcome.problems.join('; ')}`, { problems: outcome.problems });
  }
  const value = await prompt.invoke(outcome.value, ctx);
  return toGetPromptResult(value, prompt.entry.description);
}
