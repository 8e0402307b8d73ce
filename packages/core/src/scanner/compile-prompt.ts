import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import type { PromptOptions } from '../decorators/decorator-options';
import type { Prompt, PromptArgument } from '../protocol/mcp-types';
import { dtoToJsonSchema } from '../schema/dto-to-json-schema';
import type { ValidatorFactory } from '../validation/validator-factory';
import { bindHandler, copyCommonFields } from './common';
import { deepFreeze } from './compile-tool';
import type { PromptDefinition } from './definitions';
import { resolveInputDto } from './resolve-input';
import { readPolicy } from './read-policy';
import type { DecoratedMethod } from './scan-providers';

/** Compiles one `@Prompt` method; its DTO's fields become the prompt's (string) arguments. */
export function compilePrompt(method: DecoratedMethod, validators: ValidatorFactory): PromptDefinition {
  const options = method.options as PromptOptions;
  const name = options.name ?? method.methodName;
  const dto = resolveInputDto(method);
  const entry: Prompt = { name, ...copyCommonFields(options) };
  if (!dto) {
    const given = options.arguments ?? [];
    if (given.length > 0) entry.arguments = given.map((argument) => ({ ...argument }));
    const schema = {
      type: 'object',
      properties: Object.fromEntries(given.map((argument) => [argument.name, { type: 'string' }])),
      required: given.filter((argument) => argument.required === true).map((argument) => argument.name),
    };
    return Object.freeze({
      name,
      owner: method.owner,
      entry: deepFreeze(entry),
      parseArguments: validators.inputParser({ schema, stripUnknown: true, generated: true }),
      invoke: bindHandler(method),
      policy: readPolicy(method),
    });
  }
  const { schema, needsClassValidator, instantiate, schemaChecked } = dtoToJsonSchema(dto);
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const args: PromptArgument[] = [];
  for (const [argName, property] of Object.entries(properties)) {
    const type = property.type;
    const stringOnly = type === 'string' || (Array.isArray(type) && type.every((t) => t === 'string' || t === 'null'));
    if (!stringOnly) {
      throw new DefinitionError(DefinitionErrorCode.INVALID_PROMPT_ARGUMENT, `Prompt argument ${dto.name}.${argName} of ${method.owner} is not a string.`, [
        'Prompt arguments are strings on the wire: use @IsString() (with @Matches, @IsIn … for shape).',
        'Convert the value inside the prompt handler when it needs another type.',
      ]);
    }
    const argument: PromptArgument = { name: argName };
    if (typeof property.title === 'string') argument.title = property.title;
    if (typeof property.description === 'string') argument.description = property.description;
    argument.required = required.has(argName);
    args.push(argument);
  }
  entry.arguments = args;
  const parseArguments = validators.inputParser({ schema, dto, needsClassValidator, stripUnknown: true, generated: true, instantiate, schemaChecked });
  return Object.freeze({ name, owner: method.owner, entry: deepFreeze(entry), parseArguments, invoke: bindHandler(method), policy: readPolicy(method) });
}
