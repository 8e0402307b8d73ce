import { clip } from '../errors/clip';
import { InvalidParamsError } from '../errors/mcp-error';
import { isObject } from '../protocol/json-rpc';
import { checkUriLength } from '../model/read-params';
import type { CompletionDefinition, PromptDefinition, ResourceTemplateDefinition } from '../scanner/definitions';
import type { HandlerContext } from './handler-context';
import type { Pipelines } from '../pipeline/pipelines';
import type { Pipeline } from '../pipeline/compile-pipeline';

/** A hidden reference is completed exactly as an unknown one: `-32602`. */
async function hiddenFrom(ctx: HandlerContext, pipeline: Pipeline | undefined): Promise<boolean> {
  if (pipeline === undefined || (await pipeline.authorize(ctx, 'complete')) !== 'hidden') return false;
  ctx.outcome = 'hidden';
  return true;
}

const MAX_VALUES = 100;

/** The `completion/complete` result. */
export interface CompleteResult {
  completion: { values: string[]; total?: number; hasMore?: boolean };
}

/**
 * `completion/complete`: finds the `@Complete` method of a prompt argument or a template
 * variable. An existing reference without a completer gets no suggestions; an unknown one is
 * `-32602`. At most 100 values go back, with `total` and `hasMore` when there were more.
 */
export async function complete(
  completions: ReadonlyMap<string, CompletionDefinition>,
  prompts: ReadonlyMap<string, PromptDefinition>,
  templates: readonly ResourceTemplateDefinition[],
  params: Record<string, unknown>,
  ctx: HandlerContext,
  maxUriLength: number,
  pipelines?: Pipelines,
): Promise<CompleteResult> {
  const { ref, argument, context } = params;
  if (!isObject(ref) || !isObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
    throw new InvalidParamsError('completion/complete needs params.ref and params.argument { name, value }');
  }
  const completion = completions.get(await completerKey(ref, argument.name, prompts, templates, ctx, maxUriLength, pipelines));
  if (!completion) return { completion: { values: [] } };
  const args = isObject(context) && isObject(context.arguments) ? (context.arguments as Record<string, string>) : {};
  return resultOf(await completion.invoke(argument.value, { arguments: args }, ctx));
}

/**
 * The key of the completer a reference names (`prompt:<name>:<argument>`,
 * `resource:<template>:<variable>`); an unknown or hidden prompt or template is `-32602`.
 */
async function completerKey(
  ref: Record<string, unknown>,
  argument: string,
  prompts: ReadonlyMap<string, PromptDefinition>,
  templates: readonly ResourceTemplateDefinition[],
  ctx: HandlerContext,
  maxUriLength: number,
  pipelines: Pipelines | undefined,
): Promise<string> {
  if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
    if (!prompts.has(ref.name) || (pipelines !== undefined && (await hiddenFrom(ctx, pipelines.prompts.byName.get(ref.name)))))
      throw new InvalidParamsError(`Unknown prompt: ${clip(ref.name)}`);
    return `prompt:${ref.name}:${argument}`;
  }
  if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
    checkUriLength(ref.uri, 'completion/complete params.ref.uri', maxUriLength);
    if (
      !templates.some((template) => template.entry.uriTemplate === ref.uri) ||
      (pipelines !== undefined && (await hiddenFrom(ctx, pipelines.templates.byName.get(ref.uri))))
    )
      throw new InvalidParamsError(`Unknown resource template: ${clip(ref.uri)}`);
    return `resource:${ref.uri}:${argument}`;
  }
  throw new InvalidParamsError('completion/complete params.ref must be { type: "ref/prompt", name } or { type: "ref/resource", uri }');
}

/** What a completer answered (a list, or `{ values }`), as strings: at most 100, with `total` and `hasMore`. */
function resultOf(answer: unknown): CompleteResult {
  const values = (Array.isArray(answer) ? answer : isObject(answer) && Array.isArray(answer.values) ? answer.values : []).map(String);
  if (values.length <= MAX_VALUES) return { completion: { values, total: values.length, hasMore: false } };
  return { completion: { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: true } };
}
