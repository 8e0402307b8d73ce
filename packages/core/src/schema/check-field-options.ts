import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import type { FieldOptions } from '../decorators/field.decorator';
import type { JsonSchema } from '../protocol/mcp-types';

// The ajv-formats names that apply to numbers; every other one applies to strings.
const NUMBER_FORMATS = new Set(['int32', 'int64', 'float', 'double']);

/**
 * ajv-formats' names (v3). A copy, not a require of its table: that module compiles every format's
 * regular expression as it loads, a millisecond of a start-up that needs only the names. A name
 * the copy lacks is looked up in the installed table (a newer ajv-formats may know it).
 * check-field-options.spec.ts keeps the copy equal to the installed ajv-formats' own list.
 */
export const AJV_FORMAT_NAMES: ReadonlySet<string> = new Set([
  'date',
  'time',
  'date-time',
  'iso-time',
  'iso-date-time',
  'duration',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'byte',
  'int32',
  'int64',
  'float',
  'double',
  'password',
  'binary',
]);

function installedFormatNames(): readonly string[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('ajv-formats/dist/formats') as { formatNames: string[] }).formatNames;
}

/**
 * `@Field` options that cannot go together, checked before the property's schema is built: each
 * shape option (`schema`, `oneOf`, `record`) decides the whole schema, so a second one would be
 * dropped without a word, and a `discriminator` only means something beside `oneOf`.
 */
export function checkFieldCombination(where: string, field: FieldOptions): void {
  const shapes = (['record', 'oneOf', 'schema'] as const).filter((key) => field[key] !== undefined);
  if (shapes.length > 1) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `${where} has @Field({ ${shapes.join(', ')} }): each of them gives the whole schema.`, [
      'Keep one: record for a map, oneOf for one of several types, schema for a raw JSON Schema.',
    ]);
  }
  if (field.discriminator !== undefined && field.oneOf === undefined) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `${where} has @Field({ discriminator }) without oneOf.`, [
      `List the classes it tells apart: @Field({ oneOf: [Circle, Square], discriminator: '${field.discriminator}' }).`,
    ]);
  }
}

/**
 * A `@Field({ format })` that ajv would not enforce: a name ajv-formats does not know (ajv only
 * warns and ignores it) or a format for another type than the property's (a format constrains
 * only values of its own type, so an integer with `format: "email"` is any integer).
 */
export function checkFieldFormat(where: string, format: string, schema: JsonSchema): void {
  if (!AJV_FORMAT_NAMES.has(format) && !installedFormatNames().includes(format)) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `${where} has @Field({ format: ${JSON.stringify(format)} }), which no validator knows.`, [
      "Use one of ajv-formats' names: date, time, date-time, duration, uri, email, hostname, ipv4, ipv6, uuid, regex …",
      'For any other rule on a string, @Matches(/…/).',
    ]);
  }
  const wanted = NUMBER_FORMATS.has(format) ? ['number', 'integer'] : ['string'];
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((type) => type !== 'null');
  if (!types.every((type) => wanted.includes(type as string))) {
    throw new DefinitionError(
      DefinitionErrorCode.INVALID_OPTIONS,
      `${where} has @Field({ format: ${JSON.stringify(format)} }) but is not a ${wanted[0]}: the format would constrain nothing.`,
      [`A ${JSON.stringify(format)} is a ${wanted[0]}: declare it with ${wanted[0] === 'string' ? '@IsString()' : '@IsNumber()'}, or drop the format.`],
    );
  }
}
