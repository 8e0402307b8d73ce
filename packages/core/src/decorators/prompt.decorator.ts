import { PROMPT_METADATA } from '../metadata/metadata-keys';
import type { PromptOptions } from './decorator-options';
import { assertIsMethod } from './assert-method';

/**
 * Declares a method as an MCP prompt. Its arguments come from a DTO of string fields; return a
 * string (one user message), an array of messages, or a full `GetPromptResult`.
 *
 * @example
 * class Prompts {
 *   @Prompt({ description: 'Greets someone' })
 *   greet(args: GreetArgs) {
 *     return `Say hello to ${args.name}`;
 *   }
 * }
 */
export function Prompt(options: PromptOptions = {}): MethodDecorator {
  return (target, propertyKey, descriptor) => {
    assertIsMethod('@Prompt', target, propertyKey, descriptor);
    Reflect.defineMetadata(PROMPT_METADATA, { ...options }, target, propertyKey);
  };
}
