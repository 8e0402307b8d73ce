import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import type { FieldType } from '../decorators/field.decorator';
import { DATE_TIME } from './class-validator-keywords';
import { hasDtoMetadata, isDtoClass, PRIMITIVE_TYPES } from './dto-metadata';
import type { MemberSchema, ShapedSchema } from './union-schema';

/** `@Field({ record })`: an object whose every value has one schema (`where` is `Dto.property`). */
export function recordOf(where: string, type: FieldType, member: MemberSchema): ShapedSchema {
  const primitive = PRIMITIVE_TYPES.get(type);
  if (primitive) return { schema: { type: 'object', additionalProperties: { type: primitive } } };
  if (type === Date) return { schema: { type: 'object', additionalProperties: { ...DATE_TIME } }, conversion: { kind: 'record', values: { kind: 'date' } } };
  // Anything else must be a DTO: a class without metadata would give every value the schema of an empty object.
  if (!isDtoClass(type)) {
    throw new DefinitionError(
      DefinitionErrorCode.INVALID_OPTIONS,
      `${where} has @Field({ record }) of something that is not String, Number, Boolean, Date or a DTO class.`,
      [
        'Name the type of every value: @Field({ record: String }) or @Field({ record: ValueDto }).',
        'Values of several kinds: @Field({ schema: { type: "object", additionalProperties: { oneOf: [ … ] } } }).',
      ],
    );
  }
  if (!hasDtoMetadata(type)) {
    throw new DefinitionError(
      DefinitionErrorCode.INVALID_OPTIONS,
      `${where} has @Field({ record: ${type.name} }) but ${type.name} has no decorators: its values would be any object.`,
      [`Decorate ${type.name}'s properties (@IsString(), @IsInt() …) or describe them with @Field().`],
    );
  }
  const values = member(type, where, 'the type of the values');
  return { schema: { type: 'object', additionalProperties: values }, conversion: { kind: 'record', values: { kind: 'dto', dto: type } } };
}
