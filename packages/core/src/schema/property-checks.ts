import { isDeepStrictEqual } from 'node:util';
import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import type { Constructor } from '../metadata/constructor';
import type { JsonSchema } from '../protocol/mcp-types';
import { designTypeOf } from './dto-metadata';

// Keywords that describe a value without constraining it: a schema of only these accepts anything.
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'deprecated', 'x-mcp-header']);

/**
 * A property the class initialises but no decorator names: TypeScript records nothing about
 * it, so it would be neither published nor handed to the handler. (A property with neither a
 * decorator nor an initialiser leaves no trace at all: the docs say so.)
 */
export function checkDeclared(dto: Constructor, sample: Record<string, unknown>, declared: ReadonlyMap<string, unknown>): void {
  for (const key of Object.keys(sample)) {
    if (declared.has(key)) continue;
    throw new DefinitionError(
      DefinitionErrorCode.UNDECLARED_FIELD,
      `${dto.name}.${key} has no decorator, so it is not part of the input: it is not published and the handler never receives it.`,
      [
        `Give ${dto.name}.${key} the decorator of its type (@IsString(), @IsInt() …), with @IsOptional() if it may be absent.`,
        'Or describe it with @Field({ … }).',
        'If it is not input, make it a getter or a method, or move it out of the DTO.',
      ],
    );
  }
}

/**
 * A `@Field({ default })` that can be applied: it agrees with the class initialiser, and it does
 * not hold the DTO that contains it (built like data, each default would take the default again).
 */
export function checkDefault(dto: Constructor, property: string, value: unknown, sample: Record<string, unknown> | undefined, schema: JsonSchema): void {
  if (sample && sample[property] !== undefined && !isDeepStrictEqual(sample[property], value)) {
    throw new DefinitionError(
      DefinitionErrorCode.INVALID_OPTIONS,
      `${dto.name}.${property} has @Field({ default: ${JSON.stringify(value)} }) and the initialiser ${JSON.stringify(sample[property])}.`,
      ['Keep one: @Field({ default }) is published and applied; the initialiser is not needed.'],
    );
  }
  if (value !== null && refersBack(schema)) {
    throw new DefinitionError(
      DefinitionErrorCode.INVALID_OPTIONS,
      `${dto.name}.${property} has @Field({ default }) but holds the DTO that contains it: each default built would take the default again, without end.`,
      ['Leave the property out, or give it the default null (with @Field({ nullable: true })).'],
    );
  }
}

/** The property holds a DTO that contains itself (or items of it): its schema is a `$ref`. */
function refersBack(schema: JsonSchema): boolean {
  const items = schema.items as JsonSchema | undefined;
  const choices = (schema.anyOf as JsonSchema[] | undefined) ?? [];
  return [schema, items, ...choices, ...choices.map((choice) => choice.items as JsonSchema | undefined)].some((node) => node?.$ref !== undefined);
}

/** A property whose schema would say nothing (`{}` with annotations at most), unless it is a raw `@Field({ schema: {} })`. */
export function checkNotEmpty(dto: Constructor, property: string, schema: JsonSchema): void {
  for (const key of Object.keys(schema)) if (!ANNOTATIONS.has(key)) return;
  const design = designTypeOf(dto, property);
  const why =
    design === Object || design === undefined
      ? 'TypeScript records its type as Object (a union, an interface, `object`, `unknown` or `any`)'
      : `nothing says what its ${(design as { name?: string }).name ?? 'type'} travels as`;
  throw new DefinitionError(DefinitionErrorCode.EMPTY_FIELD_SCHEMA, `${dto.name}.${property} would publish the schema {} and accept any value: ${why}.`, [
    'Say its type with a decorator: @IsString(), @IsNumber(), @IsObject(), @IsArray() …',
    'A Date: @Type(() => Date) (class-transformer) with @IsDate().',
    "One of several DTOs: @Field({ oneOf: [Circle, Square], discriminator: 'kind' }).",
    'A map: @Field({ record: String }) (or a DTO class for the values).',
    'Any JSON value on purpose: @Field({ schema: {} }).',
  ]);
}
