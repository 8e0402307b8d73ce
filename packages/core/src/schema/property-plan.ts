import { ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import type { Constructor } from '../metadata/constructor';
import { checkPattern } from '../validation/unsafe-pattern';
import { arrayUniqueSelects } from './array-unique-selector';
import { DECORATOR, KEYWORD_MAPPERS, TYPE_DECORATORS, type Keywords } from './class-validator-keywords';
import { designSchemaType } from './dto-metadata';

/** What a property's class-validator decorators say, read once: the keywords of the value and of its items. */
export interface PropertyPlan {
  typeKeywords: Keywords;
  keywords: Keywords;
  itemType: Keywords;
  itemKeywords: Keywords;
  optional: boolean;
  /** `@ValidateNested` (with `each`: on every item). */
  nested: boolean;
  nestedEach: boolean;
  /** `@IsDate` (with `each`: on every item). */
  date: boolean;
  dateEach: boolean;
}

/** What the plan tells the schema builder beyond the plan itself. */
export interface PlanNotes {
  /** Some constraint has no JSON Schema form: class-validator must run. */
  needsClassValidator(): void;
  /** A constraint the schema says (`mapped`) or could not say (`unmapped`), by decorator name. */
  constraint(name: string, mapped: boolean): void;
}

/** `@Matches(pattern, modifiers?)`'s regex, as class-validator and ajv will run it, held to `checkPattern`. */
function checkMatches([pattern, modifiers]: unknown[], where: string): void {
  if (pattern instanceof RegExp) checkPattern(pattern.source, pattern.flags, where);
  else if (typeof pattern === 'string') checkPattern(pattern, typeof modifiers === 'string' ? modifiers : '', where);
}

/**
 * The plan of one property from its class-validator metadata: its type and keywords, those of its
 * items (`{ each: true }`), whether it is optional, nested or a Date.
 */
export function planProperty(dto: Constructor, property: string, metadatas: readonly ValidationMetadata[], notes: PlanNotes): PropertyPlan {
  const plan: PropertyPlan = {
    typeKeywords: {},
    keywords: {},
    itemType: {},
    itemKeywords: {},
    optional: false,
    nested: false,
    nestedEach: false,
    date: false,
    dateEach: false,
  };
  let defined = false;
  for (const metadata of metadatas) {
    switch (metadata.type) {
      case ValidationTypes.CONDITIONAL_VALIDATION:
        plan.optional = true;
        // `@IsOptional` means "absent"; `@ValidateIf` is a condition only class-validator can run.
        if (metadata.name !== 'isOptional') notes.needsClassValidator();
        break;
      case ValidationTypes.IS_DEFINED:
        defined = true;
        break;
      case ValidationTypes.NESTED_VALIDATION:
        plan.nested = true;
        plan.nestedEach = metadata.each === true;
        break;
      case ValidationTypes.WHITELIST:
        break;
      case ValidationTypes.CUSTOM_VALIDATION:
        planConstraint(plan, dto, property, metadata, notes);
        break;
      default:
        notes.needsClassValidator();
    }
  }
  if (defined) plan.optional = false;
  return plan;
}

/** One class-validator constraint (`@IsString`, `@MinLength` …) into the plan: a type, keywords, or left to class-validator. */
function planConstraint(plan: PropertyPlan, dto: Constructor, property: string, metadata: ValidationMetadata, notes: PlanNotes): void {
  const name = metadata.name ?? '';
  const each = metadata.each === true;
  if (name === DECORATOR.IS_DATE || TYPE_DECORATORS[name] || KEYWORD_MAPPERS[name]) notes.constraint(name, true);
  if (name === DECORATOR.IS_DATE) {
    // A Date travels as a date-time string and is built back into a Date for the handler.
    if (each) plan.dateEach = true;
    else plan.date = true;
    return;
  }
  const typeName = TYPE_DECORATORS[name];
  if (typeName) {
    setType(plan, each, typeName);
    return;
  }
  const keywords = mappedKeywords(plan, dto, property, metadata);
  if (keywords === undefined) {
    notes.needsClassValidator();
    if (name !== '') notes.constraint(name, false);
    return;
  }
  // A type a keyword implies (`@IsEmail`: a string) yields to one a type decorator says.
  if (keywords.type !== undefined && (each ? plan.itemType : plan.typeKeywords).type === undefined) setType(plan, each, keywords.type);
  const { type: _ignored, ...rest } = keywords;
  Object.assign(each ? plan.itemKeywords : plan.keywords, rest);
}

function setType(plan: PropertyPlan, each: boolean, type: unknown): void {
  if (each) plan.itemType = { type };
  else plan.typeKeywords = { type };
}

/** The keywords a mapped decorator publishes; undefined when JSON Schema cannot say it (class-validator then checks it). */
function mappedKeywords(plan: PropertyPlan, dto: Constructor, property: string, metadata: ValidationMetadata): Keywords | undefined {
  const name = metadata.name ?? '';
  const mapper = KEYWORD_MAPPERS[name];
  const currentType = (metadata.each === true ? plan.itemType.type : plan.typeKeywords.type) as string | undefined;
  // An @ArrayUnique's selector is not in its metadata: asked of the check itself.
  const constraints = name === DECORATOR.ARRAY_UNIQUE ? [arrayUniqueSelects(metadata) ? 'selector' : undefined] : ((metadata.constraints ?? []) as unknown[]);
  // Published or left to class-validator, the regex runs on what clients send.
  if (name === DECORATOR.MATCHES) checkMatches(constraints, `@Matches on ${dto.name}.${property}`);
  return mapper?.(constraints, currentType ?? designSchemaType(dto, property));
}
