import { Complete, type CompleteOptions } from '../decorators/complete.decorator';
import type { RequestContext } from '../model/request-context';
import { defineProvider, type Definition } from './definition';

/**
 * What a decorated `@Complete` method is, as a function: the partial value, the other arguments
 * already filled in, and the request context. It returns the suggestions (an array, or
 * `{ values }`).
 */
export type CompletionHandler = (value: string, context: { arguments: Record<string, string> }, ctx: RequestContext) => unknown;

/**
 * Suggests values for one argument of a prompt or one variable of a resource template, without
 * a class. It takes `@Complete`'s options and is compiled by `createApp` exactly as `@Complete`
 * is, so what it completes must exist (declared by either form).
 *
 * @param options The prompt and argument, or the template (its `uriTemplate`) and variable.
 * @param handler Returns the suggestions for the partial value.
 * @returns A provider for `createApp({ providers })`.
 * @throws DefinitionError when the options or the handler are missing; every other mistake is
 *   reported by `createApp`.
 *
 * @example
 * defineCompletion({ prompt: 'review', argument: 'language' }, (value) => LANGUAGES.filter((name) => name.startsWith(value)));
 */
export function defineCompletion(options: CompleteOptions, handler: CompletionHandler): Definition<'complete'> {
  return defineProvider(
    'complete',
    'defineCompletion',
    options,
    handler,
    (given) => ('prompt' in given ? `${given.prompt}/${given.argument}` : `${given.resourceTemplate}/${given.variable}`),
    (given) => Complete(given),
  );
}
