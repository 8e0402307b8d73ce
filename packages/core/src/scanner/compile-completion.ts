import type { CompleteOptions } from '../decorators/complete.decorator';
import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { bindHandler } from './common';
import type { CompletionDefinition, PromptDefinition, ResourceTemplateDefinition } from './definitions';
import type { DecoratedMethod } from './scan-providers';

/** The key a completion is found by from a `completion/complete` reference. */
export function completionKey(ref: { prompt: string; argument: string } | { resourceTemplate: string; variable: string }): string {
  return 'prompt' in ref ? `prompt:${ref.prompt}:${ref.argument}` : `resource:${ref.resourceTemplate}:${ref.variable}`;
}

/** Compiles a `@Complete` method, checking that what it completes exists. */
export function compileCompletion(
  method: DecoratedMethod,
  prompts: ReadonlyMap<string, PromptDefinition>,
  templates: ReadonlyMap<string, ResourceTemplateDefinition>,
): [string, CompletionDefinition] {
  const options = method.options as unknown as CompleteOptions;
  if ('prompt' in options) {
    const prompt = prompts.get(options.prompt);
    const known = prompt?.entry.arguments?.some((argument) => argument.name === options.argument);
    if (!known) {
      throw new DefinitionError(
        DefinitionErrorCode.INVALID_OPTIONS,
        `${method.site} names ${prompt ? `argument "${options.argument}" of` : ''} prompt "${options.prompt}", which does not exist.`,
        ['Name a prompt declared with @Prompt and one of its arguments (a field of its DTO).'],
      );
    }
  } else {
    const template = templates.get(options.resourceTemplate);
    if (!template || !template.template.variableNames.includes(options.variable)) {
      throw new DefinitionError(
        DefinitionErrorCode.INVALID_OPTIONS,
        `${method.site} names variable "${options.variable}" of template "${options.resourceTemplate}", which does not exist.`,
        ["Name the template exactly as declared (its uriTemplate, e.g. 'notes://{id}') and one of its variables."],
      );
    }
  }
  return [completionKey(options), Object.freeze({ owner: method.owner, invoke: bindHandler(method) as unknown as CompletionDefinition['invoke'] })];
}
