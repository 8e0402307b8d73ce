import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { assertExperimentalDecorators } from './experimental-decorators';

/** Decorators only make sense on methods; say so at decoration time, naming the member. */
export function assertIsMethod(decorator: string, target: object, propertyKey: string | symbol, descriptor?: PropertyDescriptor): void {
  assertExperimentalDecorators(decorator, propertyKey);
  if (descriptor && typeof descriptor.value === 'function') return;
  const owner = typeof target === 'function' ? target.name : target.constructor.name;
  throw new DefinitionError(DefinitionErrorCode.NOT_A_METHOD, `${decorator} is on ${owner}.${String(propertyKey)}, which is not a method.`, [
    `Put ${decorator} on a method: ${String(propertyKey)}(input, ctx) { … }`,
    'Getters, setters and fields cannot be handlers.',
  ]);
}
