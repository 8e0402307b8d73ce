import type { FieldOptions } from '../decorators/field.decorator';
import type { Constructor } from '../metadata/constructor';
import type { JsonSchema } from '../protocol/mcp-types';
import { checkFieldCombination } from './check-field-options';
import { DATE_TIME } from './class-validator-keywords';
import type { Conversion } from './dto-instantiator';
import { designSchemaType, designTypeOf } from './dto-metadata';
import { withFieldOptions } from './field-annotations';
import { orderKeywords } from './order-keywords';
import { dateOf, nestedClassOf } from './property-class';
import { checkNotEmpty } from './property-checks';
import type { PropertyPlan } from './property-plan';
import { recordOf } from './record-schema';
import { unionOf, type MemberSchema, type ShapedSchema } from './union-schema';

/** What the schema builder lends the property: the schema of a nested DTO, and of one only ajv checks. */
export interface PropertyContext {
  objectSchema(dto: Constructor): JsonSchema;
  readonly member: MemberSchema;
}

/** A property's published schema and how its value is built (`each`: on every item of an array). */
export interface PropertySchema extends ShapedSchema {
  each: boolean;
}

/**
 * One property's schema: its shape (a raw `@Field({ schema })`, a union, a record, a Date, a nested
 * DTO, or a scalar or array of any of these) from its decorators, then its `@Field` options.
 */
export function propertySchema(
  context: PropertyContext,
  dto: Constructor,
  property: string,
  plan: PropertyPlan,
  field: FieldOptions | undefined,
): PropertySchema {
  const where = `${dto.name}.${property}`;
  if (field) checkFieldCombination(where, field);
  const raw = field?.schema !== undefined;
  // A raw schema for this field alone: taken as written, over whatever the decorators say.
  const shaped: PropertySchema = raw
    ? { schema: { ...plan.typeKeywords, ...plan.keywords, ...field.schema }, each: false }
    : declaredSchema(context, dto, property, plan, field);
  const schema = field ? withFieldOptions(where, field, shaped.schema, raw) : shaped.schema;
  if (!raw) checkNotEmpty(dto, property, schema);
  return { schema: orderKeywords(schema), conversion: shaped.conversion, each: shaped.each };
}

/** The shape the decorators and the `oneOf` / `record` options say. */
function declaredSchema(context: PropertyContext, dto: Constructor, property: string, plan: PropertyPlan, field: FieldOptions | undefined): PropertySchema {
  const union = unionOf(dto, property, field, context.member);
  if (union) {
    const each = plan.nestedEach || plan.typeKeywords.type === 'array' || designTypeOf(dto, property) === Array;
    const schema = each ? { type: 'array', items: union.schema, ...plan.keywords } : { ...union.schema, ...plan.keywords };
    return { schema, conversion: union.conversion, each };
  }
  const date = dateOf(dto, property, plan);
  if (field?.record !== undefined) {
    const record = recordOf(`${dto.name}.${property}`, field.record, context.member);
    return { schema: { ...record.schema, ...plan.keywords }, conversion: record.conversion, each: false };
  }
  if (date.date && !date.each) return { schema: { ...DATE_TIME, ...plan.keywords }, conversion: { kind: 'date' }, each: false };
  if (plan.nested && !plan.nestedEach) {
    const child = nestedClassOf(dto, property);
    return { schema: { ...context.objectSchema(child), ...plan.keywords }, conversion: { kind: 'dto', dto: child }, each: false };
  }
  return valueSchema(context, dto, property, plan, date.each);
}

/** A scalar, or an array whose items are scalars, Dates or nested DTOs. */
function valueSchema(context: PropertyContext, dto: Constructor, property: string, plan: PropertyPlan, dates: boolean): PropertySchema {
  const schema: JsonSchema = { ...plan.typeKeywords, ...plan.keywords };
  if (schema.type === undefined && schema.enum === undefined && schema.const === undefined) {
    const design = designSchemaType(dto, property);
    if (design) schema.type = design;
  }
  const { items, conversion } = itemsOf(context, dto, property, plan, dates);
  if (Object.keys(items).length > 0) {
    schema.type ??= 'array';
    schema.items = items;
  }
  return { schema, conversion, each: conversion !== undefined };
}

function itemsOf(
  context: PropertyContext,
  dto: Constructor,
  property: string,
  plan: PropertyPlan,
  dates: boolean,
): { items: JsonSchema; conversion?: Conversion } {
  if (plan.nested) {
    const child = nestedClassOf(dto, property);
    return { items: context.objectSchema(child), conversion: { kind: 'dto', dto: child } };
  }
  if (dates) return { items: { ...DATE_TIME, ...plan.itemKeywords }, conversion: { kind: 'date' } };
  return { items: { ...plan.itemType, ...plan.itemKeywords } };
}
