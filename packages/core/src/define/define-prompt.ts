import type { PromptOptions } from '../decorators/decorator-options';
import { Prompt } from '../decorators/prompt.decorator';
import type { RequestContext } from '../model/request-context';
import type { Constructor } from '../metadata/constructor';
import { withPipeline, type DefinePipelineOptions } from './define-pipeline';
import { defineProvider, type Definition } from './definition';

/**
 * The options of `@Prompt`, with `name` required and no `input` meaning a prompt without
 * arguments (there is no method, so no parameter type to infer from).
 */
export interface DefinePromptOptions<I extends object = Record<string, string>> extends Omit<PromptOptions, 'name' | 'input'>, DefinePipelineOptions {
  name: string;
  /** The arguments DTO (string fields only); its instance is the handler's first argument. */
  input?: Constructor<I> | null;
}

/** What a decorated `@Prompt` method is, as a function: the validated arguments and the request context. */
export type PromptHandler<I extends object = Record<string, string>> = (args: I, ctx: RequestContext) => unknown;

/**
 * Declares a prompt without a class. It takes `@Prompt`'s options and is compiled by `createApp`
 * exactly as `@Prompt` is; complete its arguments with `defineCompletion` or `@Complete`.
 *
 * @param options `@Prompt`'s options, `name` required.
 * @param handler Returns what a `@Prompt` method returns: a string, messages or a `GetPromptResult`.
 * @returns A provider for `createApp({ providers })`.
 * @throws DefinitionError when the options, the name or the handler are missing; every other
 *   mistake is reported by `createApp`.
 *
 * @example
 * const prompts = templates.map((template) =>
 *   definePrompt({ name: template.id, description: template.title, input: SubjectArgs }, (args) => template.render(args.subject)),
 * );
 */
export function definePrompt<I extends object = Record<string, string>>(options: DefinePromptOptions<I>, handler: PromptHandler<I>): Definition<'prompt'> {
  return defineProvider(
    'prompt',
    'definePrompt',
    options,
    handler,
    (given) => given.name,
    (given) => withPipeline(given, (own) => Prompt({ ...own, input: own.input ?? null })),
  );
}
