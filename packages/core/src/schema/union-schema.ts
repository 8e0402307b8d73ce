import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import type { FieldOptions, FieldType } from '../decorators/field.decorator';
import type { Constructor } from '../metadata/constructor';
import type { JsonSchema } from '../protocol/mcp-types';
import type { Conversion } from './dto-instantiator';
import { isDtoClass, PRIMITIVE_TYPES, typeMetadataOf } from './dto-metadata';

/** A property's schema and how its validated value is built for the handler. */
export interface ShapedSchema {
  schema: JsonSchema;
  conversion?: Conversion;
}

/** The schema of a DTO that only ajv checks (a union member, a record's values): see `SchemaBuilder.ajvOnlySchema`. */
export type MemberSchema = (type: Constructor, where: string, role: string) => JsonSchema;

const MEMBER = 'a member of the union';

/** The union a property declares: with `@Field({ oneOf })` or class-transformer's `@Type` discriminator; undefined when none. */
export function unionOf(dto: Constructor, property: string, field: FieldOptions | undefined, member: MemberSchema): ShapedSchema | undefined {
  if (field?.oneOf !== undefined) return fieldUnion(`${dto.name}.${property}`, field.oneOf, field.discriminator, member);
  const options = typeMetadataOf(dto, property)?.options;
  const discriminator = options?.discriminator;
  if (discriminator === undefined) return undefined;
  const choices = new Map<unknown, Constructor>();
  const variants: JsonSchema[] = [];
  for (const { name, value } of discriminator.subTypes) {
    choices.set(name, value as Constructor);
    variants.push(tagged(member(value as Constructor, `${dto.name}.${property}`, MEMBER), discriminator.property, name));
  }
  const keep = options?.keepDiscriminatorProperty === true;
  return { schema: { oneOf: variants }, conversion: { kind: 'union', property: discriminator.property, choices, keep } };
}

function fieldUnion(where: string, types: readonly FieldType[], discriminator: string | undefined, member: MemberSchema): ShapedSchema {
  if (types.length === 0)
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `${where} has @Field({ oneOf: [] }).`, ['List the types it may hold.']);
  if (types.every((type) => PRIMITIVE_TYPES.has(type))) return { schema: { type: types.map((type) => PRIMITIVE_TYPES.get(type)!) } };
  if (!types.every(isDtoClass) || discriminator === undefined) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `${where} has @Field({ oneOf }) of DTO classes without a discriminator.`, [
      `Name the property that tells them apart: @Field({ oneOf: [${types.map((type) => (type as { name?: string }).name).join(', ')}], discriminator: 'kind' }), each class declaring it with @Equals('…').`,
      'oneOf lists either only DTO classes or only String, Number and Boolean.',
    ]);
  }
  const choices = new Map<unknown, Constructor>();
  const variants: JsonSchema[] = [];
  for (const type of types as Constructor[]) {
    const schema = member(type, where, MEMBER);
    const value = tagOf(schema, type, discriminator, where);
    if (choices.has(value)) {
      throw new DefinitionError(
        DefinitionErrorCode.INVALID_OPTIONS,
        `${where}: ${choices.get(value)!.name} and ${type.name} both have ${discriminator} ${JSON.stringify(value)}.`,
        ['Give each class its own value.'],
      );
    }
    choices.set(value, type);
    variants.push(schema);
  }
  return { schema: { oneOf: variants }, conversion: { kind: 'union', property: discriminator, choices, keep: false } };
}

/** The one required value a union member fixes its discriminator to (`@Equals`, or an `@IsIn` of one). */
function tagOf(schema: JsonSchema, type: Constructor, discriminator: string, where: string): unknown {
  const tag = (schema.properties as Record<string, JsonSchema> | undefined)?.[discriminator];
  const value = tag?.const ?? (Array.isArray(tag?.enum) && tag.enum.length === 1 ? tag.enum[0] : undefined);
  if (value !== undefined && (schema.required as string[] | undefined)?.includes(discriminator)) return value;
  throw new DefinitionError(
    DefinitionErrorCode.INVALID_OPTIONS,
    `${type.name}.${discriminator} must hold one required value to tell ${where}'s classes apart.`,
    [`Declare it in ${type.name}: @Equals('${type.name.toLowerCase()}') ${discriminator}: '${type.name.toLowerCase()}';`],
  );
}

/** A variant of a class-transformer union: its schema with the discriminator fixed to its name. */
function tagged(schema: JsonSchema, property: string, value: string): JsonSchema {
  const tag = { const: value };
  if (schema.$ref !== undefined) return { allOf: [schema], properties: { [property]: tag }, required: [property] };
  const properties = { ...(schema.properties as Record<string, JsonSchema>), [property]: tag };
  const required = [...new Set([...((schema.required as string[] | undefined) ?? []), property])];
  return { ...schema, properties, required };
}
