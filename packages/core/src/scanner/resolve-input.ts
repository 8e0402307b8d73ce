import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import type { Constructor } from '../metadata/constructor';
import { hasDtoMetadata } from '../schema/dto-metadata';
import type { DecoratedMethod } from './scan-providers';

const BUILT_INS: ReadonlySet<unknown> = new Set([Object, String, Number, Boolean, Array, Function, Promise, Date, Symbol, BigInt]);

function isDtoCandidate(value: unknown): value is Constructor {
  return typeof value === 'function' && !BUILT_INS.has(value);
}

function assertDto(dto: Constructor, method: DecoratedMethod): void {
  if (hasDtoMetadata(dto)) return;
  throw new DefinitionError(
    DefinitionErrorCode.DTO_WITHOUT_METADATA,
    `${dto.name}, the input of ${method.owner}, has no class-validator decorators, so its schema would be empty.`,
    [
      `Decorate ${dto.name}'s properties (@IsString(), @IsInt(), @IsOptional() …) or describe them with @Field().`,
      'Make sure class-validator is installed once: two copies keep two metadata stores.',
      // A define* call has no method to declare without parameters.
      `For a ${method.label} without input, ${method.label.startsWith('@') ? `declare it as ${method.methodName}() or pass { input: null }` : 'leave input out'}.`,
    ],
  );
}

/**
 * Finds the input DTO of a decorated method: the explicit `input` option wins, else the first
 * parameter's design type. Returns `undefined` for a method without input.
 */
export function resolveInputDto(method: DecoratedMethod): Constructor | undefined {
  const decorator = method.label;
  const explicit = method.options.input as Constructor | null | undefined;
  const handler = (method.prototype as Record<string, (...args: unknown[]) => unknown>)[method.methodName];
  const paramTypes = Reflect.getMetadata('design:paramtypes', method.prototype, method.methodName) as unknown[] | undefined;
  if (explicit === null) return undefined;
  if (explicit !== undefined) {
    if (!isDtoCandidate(explicit)) {
      throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `${method.site} names an input that is not a class.`, [
        'Pass the DTO class itself: { input: CreateNoteInput }.',
      ]);
    }
    const declared = paramTypes?.[0];
    if (isDtoCandidate(declared) && declared !== explicit && !(explicit.prototype instanceof declared)) {
      throw new DefinitionError(
        DefinitionErrorCode.INPUT_TYPE_MISMATCH,
        `${method.owner} takes ${declared.name} but ${decorator} names ${explicit.name} as its input.`,
        [`Make the parameter type and the input option the same class.`, `Or drop { input } and let the parameter type decide.`],
      );
    }
    assertDto(explicit, method);
    return explicit;
  }
  if (handler.length === 0) return undefined;
  if (paramTypes === undefined) {
    throw new DefinitionError(DefinitionErrorCode.MISSING_DESIGN_METADATA, `${method.owner} has no decorator metadata, so its input DTO is unknown.`, [
      // The usual cause first: a class that uses @Tool loaded @mcpkit/core, and with it
      // reflect-metadata, before its decorators ran, so a missing polyfill is the rare case.
      'Set "experimentalDecorators": true and "emitDecoratorMetadata": true in tsconfig.json.',
      'Compile with tsc (or swc with decoratorMetadata): tsx and esbuild drop this metadata.',
      `Or name the DTO explicitly: ${decorator}({ input: MyInput }).`,
      "If the class loads before @mcpkit/core (a bundler that reorders modules), put import 'reflect-metadata' on the first line of the app's entry.",
    ]);
  }
  const declared = paramTypes[0];
  if (!isDtoCandidate(declared)) {
    throw new DefinitionError(DefinitionErrorCode.INPUT_NOT_INFERABLE, `The first parameter of ${method.owner} is not a class, so its input DTO is unknown.`, [
      'Type the first parameter with a DTO class (interfaces and type aliases leave no runtime trace).',
      `Or name it: ${decorator}({ input: MyInput }), or ${decorator}({ input: null }) for no input.`,
    ]);
  }
  assertDto(declared, method);
  return declared;
}
