import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import type { FieldOptions } from '../decorators/field.decorator';
import type { JsonSchema } from '../protocol/mcp-types';
import { checkFieldFormat } from './check-field-options';
import { nullableSchema } from './nullable-schema';

const COMPOSED = ['$ref', 'oneOf', 'anyOf', 'allOf', 'not'] as const;
const MIRRORABLE: ReadonlySet<unknown> = new Set(['string', 'integer', 'boolean']);

/**
 * A property's schema with its `@Field` annotations (`format`, `title`, `description`, `default`,
 * `examples`, `deprecated`, `header`) and `nullable` applied. An option the shape cannot honour is
 * a `DefinitionError` naming `where` (`Dto.property`): a format beside another format (a Date's
 * `date-time`, `@IsEmail`'s `email`) or on what is not a string, a header on what is not one
 * string, integer or boolean. A raw `schema` keeps its own type: a format does not give it one.
 */
export function withFieldOptions(where: string, field: FieldOptions, schema: JsonSchema, raw: boolean): JsonSchema {
  if (field.format !== undefined) applyFormat(where, field.format, schema, raw);
  if (field.title !== undefined) schema.title = field.title;
  if (field.description !== undefined) schema.description = field.description;
  if (field.default !== undefined) schema.default = field.default;
  if (field.examples !== undefined) schema.examples = field.examples;
  if (field.deprecated) schema.deprecated = true;
  if (field.header !== undefined) {
    checkHeader(where, field.header, schema);
    schema['x-mcp-header'] = field.header;
  }
  return field.nullable ? nullableSchema(schema) : schema;
}

function applyFormat(where: string, format: string, schema: JsonSchema, raw: boolean): void {
  if (schema.format !== undefined && schema.format !== format) {
    throw new DefinitionError(
      DefinitionErrorCode.INVALID_OPTIONS,
      `${where} has @Field({ format: ${JSON.stringify(format)} }) but its type already publishes the format ${JSON.stringify(schema.format)}.`,
      ['Keep one: a Date travels as a date-time string, and @IsEmail(), @IsUrl(), @IsUUID() say their own format.'],
    );
  }
  schema.format = format;
  // A property that says no type of its own (`@Equals`, a mixed `@IsIn`, only `@Field`) is a string;
  // a raw schema, a `$ref` or a union has its own, which the format must not change.
  if (!raw && !COMPOSED.some((key) => schema[key] !== undefined)) schema.type ??= 'string';
  checkFieldFormat(where, format, schema);
}

function checkHeader(where: string, header: string, schema: JsonSchema): void {
  const types = (Array.isArray(schema.type) ? (schema.type as unknown[]) : [schema.type]).filter((type) => type !== 'null');
  if (types.length === 1 && MIRRORABLE.has(types[0])) return;
  throw new DefinitionError(
    DefinitionErrorCode.INVALID_OPTIONS,
    `${where} has @Field({ header: ${JSON.stringify(header)} }) but is not one string, integer or boolean.`,
    ['Only a string, integer or boolean argument can be mirrored into an Mcp-Param header: drop the header option or change the type.'],
  );
}
