import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import type { Constructor } from '../metadata/constructor';
import { designTypeOf, isDtoClass, typeMetadataOf } from './dto-metadata';
import type { PropertyPlan } from './property-plan';

/** Whether a property holds a Date (`each`: its items do), from `@IsDate`, `@Type(() => Date)` or TypeScript's type. */
export function dateOf(dto: Constructor, property: string, plan: PropertyPlan): { date: boolean; each: boolean } {
  const named = typeMetadataOf(dto, property)?.typeFunction?.() as unknown;
  const design = designTypeOf(dto, property);
  if (plan.dateEach) {
    if (named !== Date) throw dateTypeError(dto, property, true);
    return { date: true, each: true };
  }
  if (plan.date) {
    if (named !== Date && design !== Date) throw dateTypeError(dto, property, false);
    return { date: true, each: false };
  }
  // A property TypeScript types as Date (or that @Type names Date) is one even without @IsDate.
  if (named === Date) return { date: true, each: design === Array };
  return { date: design === Date, each: false };
}

function dateTypeError(dto: Constructor, property: string, each: boolean): DefinitionError {
  return new DefinitionError(
    DefinitionErrorCode.INVALID_SCHEMA,
    `${dto.name}.${property} has @IsDate(${each ? '{ each: true }' : ''}) but nothing says it holds ${each ? 'Dates' : 'a Date'}.`,
    [`Add @Type(() => Date) from class-transformer to ${dto.name}.${property}: it travels as a date-time string and the handler receives a Date.`],
  );
}

/** The DTO class a `@ValidateNested` property holds: from `@Type`, else from TypeScript's type. */
export function nestedClassOf(dto: Constructor, property: string): Constructor {
  const fromTransformer = typeMetadataOf(dto, property)?.typeFunction?.() as unknown;
  if (isDtoClass(fromTransformer)) return fromTransformer;
  const design = designTypeOf(dto, property);
  if (isDtoClass(design)) return design;
  throw new DefinitionError(DefinitionErrorCode.INVALID_SCHEMA, `${dto.name}.${property} has @ValidateNested but its class is unknown.`, [
    `Add @Type(() => ChildDto) from class-transformer to ${dto.name}.${property}.`,
    'Arrays always need @Type: TypeScript does not record element types.',
  ]);
}
