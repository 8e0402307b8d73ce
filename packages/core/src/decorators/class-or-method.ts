import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { assertExperimentalDecorators } from './experimental-decorators';

/**
 * Where a class-or-method decorator stores its value: on the class for a class decorator, on
 * the prototype and member for a method one. `append` adds to what is there (several
 * `@UseGuards` stack), otherwise the value replaces it.
 */
export function classOrMethod(decorator: string, key: string, value: unknown, append: boolean): ClassDecorator & MethodDecorator {
  return ((target: object, propertyKey?: string | symbol) => {
    assertExperimentalDecorators(decorator, propertyKey);
    if (propertyKey === undefined) {
      const own = Reflect.getOwnMetadata(key, target) as unknown[] | undefined;
      Reflect.defineMetadata(key, append ? [...(own ?? []), ...(value as unknown[])] : value, target);
    } else {
      const own = Reflect.getOwnMetadata(key, target, propertyKey) as unknown[] | undefined;
      Reflect.defineMetadata(key, append ? [...(own ?? []), ...(value as unknown[])] : value, target, propertyKey);
    }
  }) as ClassDecorator & MethodDecorator;
}

/** Checks at decoration time that each part is a class or an object with `member`, naming the decorator. */
export function assertParts(decorator: string, member: string, parts: readonly unknown[]): void {
  if (parts.length === 0) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `${decorator}() names nothing.`, [`Pass at least one: ${decorator}(MyPart).`]);
  }
  for (const part of parts) {
    const ok = typeof part === 'function' || (typeof part === 'object' && part !== null && typeof (part as Record<string, unknown>)[member] === 'function');
    if (!ok) {
      throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `${decorator} was given ${String(part)}, which has no ${member} method.`, [
        `Pass a class (or an instance) with ${member}(…): ${decorator}(MyPart) or ${decorator}(new MyPart(options)).`,
      ]);
    }
  }
}

/** Checks that every entry is a non-empty string (scopes, roles). */
export function assertNames(decorator: string, names: readonly unknown[]): void {
  if (names.length === 0 || names.some((name) => typeof name !== 'string' || name === '')) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `${decorator} needs one or more non-empty strings, got ${JSON.stringify(names)}.`, [
      `${decorator}('notes:read')`,
    ]);
  }
}
