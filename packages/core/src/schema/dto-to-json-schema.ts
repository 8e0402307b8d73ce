import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { isDeepStrictEqual } from 'node:util';
import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { FIELD_LIST_METADATA, FIELD_METADATA } from '../metadata/metadata-keys';
import type { FieldOptions, FieldType } from '../decorators/field.decorator';
import type { Constructor } from '../metadata/constructor';
import type { JsonSchema } from '../protocol/mcp-types';
import { arrayUniqueSelects } from './array-unique-selector';
import { DATE_TIME, DECORATOR, KEYWORD_MAPPERS, TYPE_DECORATORS, type Keywords } from './class-validator-keywords';
import type { SchemaChecked } from '../validation/drop-schema-checked';
import { checkFieldCombination } from './check-field-options';
import { withFieldOptions } from './field-annotations';
import { checkPattern } from '../validation/unsafe-pattern';
import { buildInstantiator, type Conversion, type ConvertedProperty, type InstancePlan } from './dto-instantiator';

/** The published schema of a DTO, and whether class-validator must still run after ajv. */
export interface DtoSchema {
  schema: JsonSchema;
  /** Some constraint had no JSON Schema form (a custom validator, `@ValidateIf` …). */
  needsClassValidator: boolean;
  /**
   * Builds the DTO instance from validated plain data: a fast path equal to class-transformer's
   * `plainToInstance` for DTOs that use only `@Type` for nested DTOs, taking only the properties
   * the DTOs declare (so unknown ones never reach the handler, in one pass, and the plain data is
   * never changed), with dates, unions and defaults applied; undefined when the DTO uses other
   * class-transformer features (`@Transform`, `@Expose`, `@Exclude` …).
   */
  instantiate: ((plain: Record<string, unknown>) => object) | undefined;
  /** The class-validator constraints the schema carries, to drop from class-validator's verdict when it runs. */
  schemaChecked: SchemaChecked;
  /** Some property carries a raw `@Field({ schema })`: unlike the rest, it is not valid by construction. */
  rawFields: boolean;
}

export interface DtoSchemaOptions {
  /** Publish `additionalProperties: false` on every object. */
  strict?: boolean;
}

interface PropertyPlan {
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

const PRIMITIVE_TYPES = new Map<unknown, string>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
]);

// Keywords that describe a value without constraining it: a schema of only these accepts anything.
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'deprecated', 'x-mcp-header']);

function isDtoClass(value: unknown): value is Constructor {
  return typeof value === 'function' && ![String, Number, Boolean, Array, Object, Date].includes(value as never);
}

/** `@Matches(pattern, modifiers?)`'s regex, as class-validator and ajv will run it, held to `checkPattern`. */
function checkMatches([pattern, modifiers]: unknown[], where: string): void {
  if (pattern instanceof RegExp) checkPattern(pattern.source, pattern.flags, where);
  else if (typeof pattern === 'string') checkPattern(pattern, typeof modifiers === 'string' ? modifiers : '', where);
}

function designTypeOf(dto: Constructor, property: string): unknown {
  return Reflect.getMetadata('design:type', dto.prototype, property);
}

/** The class-validator metadata of a DTO, grouped by property in declaration order. */
function readValidationMetadata(dto: Constructor): Map<string, ValidationMetadata[]> {
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(dto, '', false, false, undefined);
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const metadata of metadatas) {
    const list = byProperty.get(metadata.propertyName) ?? [];
    list.push(metadata);
    byProperty.set(metadata.propertyName, list);
  }
  return byProperty;
}

function readFieldNames(dto: Constructor): string[] {
  const names: string[] = [];
  for (let proto = dto.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of (Reflect.getOwnMetadata(FIELD_LIST_METADATA, proto) as string[] | undefined) ?? []) {
      if (!names.includes(name)) names.push(name);
    }
  }
  return names;
}

/** True when the class carries class-validator (or `@Field`) metadata, i.e. is usable as a DTO. */
export function hasDtoMetadata(dto: Constructor): boolean {
  return readValidationMetadata(dto).size > 0 || readFieldNames(dto).length > 0;
}

/** A fresh instance, to read what the class initialises; undefined when its constructor needs arguments it did not get. */
function sampleOf(dto: Constructor): Record<string, unknown> | undefined {
  try {
    return new dto() as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The property holds a DTO that contains itself (or items of it): its schema is a `$ref`. */
function refersBack(schema: JsonSchema): boolean {
  const items = schema.items as JsonSchema | undefined;
  const choices = (schema.anyOf as JsonSchema[] | undefined) ?? [];
  return (
    schema.$ref !== undefined ||
    items?.$ref !== undefined ||
    choices.some((choice) => choice.$ref !== undefined || (choice.items as JsonSchema | undefined)?.$ref !== undefined)
  );
}

function isEmptySchema(schema: JsonSchema): boolean {
  for (const key of Object.keys(schema)) if (!ANNOTATIONS.has(key)) return false;
  return true;
}

function emptySchemaError(dto: Constructor, property: string): DefinitionError {
  const design = designTypeOf(dto, property);
  const why =
    design === Object || design === undefined
      ? 'TypeScript records its type as Object (a union, an interface, `object`, `unknown` or `any`)'
      : `nothing says what its ${(design as { name?: string }).name ?? 'type'} travels as`;
  return new DefinitionError(DefinitionErrorCode.EMPTY_FIELD_SCHEMA, `${dto.name}.${property} would publish the schema {} and accept any value: ${why}.`, [
    'Say its type with a decorator: @IsString(), @IsNumber(), @IsObject(), @IsArray() …',
    'A Date: @Type(() => Date) (class-transformer) with @IsDate().',
    "One of several DTOs: @Field({ oneOf: [Circle, Square], discriminator: 'kind' }).",
    'A map: @Field({ record: String }) (or a DTO class for the values).',
    'Any JSON value on purpose: @Field({ schema: {} }).',
  ]);
}

class SchemaBuilder {
  needsClassValidator = false;
  rawFields = false;
  /** What each DTO's instances need: declared properties, conversions, defaults. */
  readonly plans = new Map<Constructor, InstancePlan>();
  private readonly stack: Constructor[] = [];
  // Classes met inside themselves: published once under $defs and referenced.
  private readonly recursive = new Set<Constructor>();
  private readonly defNames = new Map<Constructor, string>();
  // By class and property: the constraint names the schema says, and those it could not say (a
  // name in both, say two @IsUrl with different options, stays with class-validator).
  private readonly mapped = new Map<Constructor, Map<string, Set<string>>>();
  private readonly unmapped = new Map<Constructor, Map<string, Set<string>>>();

  constructor(private readonly options: DtoSchemaOptions) {}

  /** The root schema: the DTO's object schema, with `$defs` for the classes that contain themselves. */
  root(dto: Constructor): JsonSchema {
    const schema = this.objectSchema(dto);
    const defs: Record<string, JsonSchema> = {};
    for (const done = new Set<Constructor>(); done.size < this.recursive.size;) {
      for (const type of [...this.recursive]) {
        if (done.has(type)) continue;
        done.add(type);
        // Built with an empty stack: its own self-references become $refs to this very entry.
        defs[this.defName(type)] = this.objectSchema(type);
      }
    }
    if (this.recursive.size > 0) schema.$defs = defs;
    return schema;
  }

  /** What the schema enforces of class-validator's constraints, per class and property. */
  schemaChecked(): SchemaChecked {
    const checked = new Map<Constructor, Map<string, Set<string>>>();
    for (const [dto, properties] of this.mapped) {
      for (const [property, names] of properties) {
        const unmapped = this.unmapped.get(dto)?.get(property);
        const enforced = new Set([...names].filter((name) => !unmapped?.has(name)));
        if (enforced.size === 0) continue;
        if (!checked.has(dto)) checked.set(dto, new Map());
        checked.get(dto)!.set(property, enforced);
      }
    }
    return checked;
  }

  private note(into: Map<Constructor, Map<string, Set<string>>>, dto: Constructor, property: string, name: string): void {
    let properties = into.get(dto);
    if (!properties) into.set(dto, (properties = new Map()));
    let names = properties.get(property);
    if (!names) properties.set(property, (names = new Set()));
    names.add(name);
  }

  private defName(type: Constructor): string {
    let name = this.defNames.get(type);
    if (name === undefined) {
      const taken = new Set(this.defNames.values());
      name = type.name || 'Dto';
      for (let n = 2; taken.has(name); n++) name = `${type.name || 'Dto'}_${n}`;
      this.defNames.set(type, name);
    }
    return name;
  }

  objectSchema(dto: Constructor): JsonSchema {
    if (this.stack.includes(dto)) {
      this.recursive.add(dto);
      return { $ref: `#/$defs/${this.defName(dto)}` };
    }
    this.stack.push(dto);
    const byProperty = readValidationMetadata(dto);
    for (const name of readFieldNames(dto)) if (!byProperty.has(name)) byProperty.set(name, []);
    const sample = sampleOf(dto);
    if (sample) this.checkDeclared(dto, sample, byProperty);
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const converted: ConvertedProperty[] = [];
    const defaults: Array<readonly [string, unknown]> = [];
    for (const [name, metadatas] of byProperty) {
      const field = Reflect.getMetadata(FIELD_METADATA, dto.prototype, name) as FieldOptions | undefined;
      const plan = this.plan(dto, name, metadatas);
      const { schema, conversion, each } = this.propertySchema(dto, name, plan, field);
      properties[name] = schema;
      if (conversion) converted.push({ key: name, each, conversion });
      if (field?.default !== undefined) {
        if (sample && sample[name] !== undefined && !isDeepStrictEqual(sample[name], field.default)) {
          throw new DefinitionError(
            DefinitionErrorCode.INVALID_OPTIONS,
            `${dto.name}.${name} has @Field({ default: ${JSON.stringify(field.default)} }) and the initialiser ${JSON.stringify(sample[name])}.`,
            ['Keep one: @Field({ default }) is published and applied; the initialiser is not needed.'],
          );
        }
        if (field.default !== null && refersBack(schema)) {
          throw new DefinitionError(
            DefinitionErrorCode.INVALID_OPTIONS,
            `${dto.name}.${name} has @Field({ default }) but holds the DTO that contains it: each default built would take the default again, without end.`,
            ['Leave the property out, or give it the default null (with @Field({ nullable: true })).'],
          );
        }
        defaults.push([name, field.default]);
      }
      if (!plan.optional) required.push(name);
    }
    this.plans.set(dto, { declared: [...byProperty.keys()], converted, defaults });
    this.stack.pop();
    const schema: JsonSchema = { type: 'object', properties };
    if (required.length > 0) schema.required = required;
    if (this.options.strict) schema.additionalProperties = false;
    return schema;
  }

  /**
   * A property the class initialises but no decorator names: TypeScript records nothing about
   * it, so it would be neither published nor handed to the handler. (A property with neither a
   * decorator nor an initialiser leaves no trace at all: the docs say so.)
   */
  private checkDeclared(dto: Constructor, sample: Record<string, unknown>, declared: ReadonlyMap<string, unknown>): void {
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

  private plan(dto: Constructor, property: string, metadatas: ValidationMetadata[]): PropertyPlan {
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
          if (metadata.name !== 'isOptional') this.needsClassValidator = true;
          continue;
        case ValidationTypes.IS_DEFINED:
          defined = true;
          continue;
        case ValidationTypes.NESTED_VALIDATION:
          plan.nested = true;
          plan.nestedEach = metadata.each === true;
          continue;
        case ValidationTypes.WHITELIST:
          continue;
        case ValidationTypes.CUSTOM_VALIDATION:
          break;
        default:
          this.needsClassValidator = true;
          continue;
      }
      const name = metadata.name ?? '';
      const each = metadata.each === true;
      if (name === DECORATOR.IS_DATE || TYPE_DECORATORS[name] || KEYWORD_MAPPERS[name]) this.note(this.mapped, dto, property, name);
      if (name === DECORATOR.IS_DATE) {
        // A Date travels as a date-time string and is built back into a Date for the handler.
        if (each) plan.dateEach = true;
        else plan.date = true;
        continue;
      }
      const typeName = TYPE_DECORATORS[name];
      if (typeName) {
        if (each) plan.itemType = { type: typeName };
        else plan.typeKeywords = { type: typeName };
        continue;
      }
      const mapper = KEYWORD_MAPPERS[name];
      const target = each ? plan.itemKeywords : plan.keywords;
      const currentType = (each ? plan.itemType.type : plan.typeKeywords.type) as string | undefined;
      // An @ArrayUnique's selector is not in its metadata: asked of the check itself.
      const constraints =
        name === DECORATOR.ARRAY_UNIQUE ? [arrayUniqueSelects(metadata) ? 'selector' : undefined] : ((metadata.constraints ?? []) as unknown[]);
      // Published or left to class-validator, the regex runs on what clients send.
      if (name === DECORATOR.MATCHES) checkMatches(constraints, `@Matches on ${dto.name}.${property}`);
      const keywords = mapper?.(constraints, currentType ?? this.designType(dto, property));
      if (keywords === undefined) {
        this.needsClassValidator = true;
        if (name !== '') this.note(this.unmapped, dto, property, name);
        continue;
      }
      if (keywords.type !== undefined && (each ? plan.itemType.type : plan.typeKeywords.type) === undefined) {
        if (each) plan.itemType = { type: keywords.type };
        else plan.typeKeywords = { type: keywords.type };
      }
      const { type: _ignored, ...rest } = keywords;
      Object.assign(target, rest);
    }
    if (defined) plan.optional = false;
    return plan;
  }

  private designType(dto: Constructor, property: string): string | undefined {
    const type = designTypeOf(dto, property);
    if (type === Array) return 'array';
    return PRIMITIVE_TYPES.get(type);
  }

  /** What `@Type(() => X)` names for a property, if anything. */
  private typeMetadata(dto: Constructor, property: string) {
    return defaultMetadataStorage.findTypeMetadata(dto, property);
  }

  private isDateProperty(dto: Constructor, property: string, plan: PropertyPlan): { date: boolean; each: boolean } {
    const named = this.typeMetadata(dto, property)?.typeFunction?.() as unknown;
    const design = designTypeOf(dto, property);
    if (plan.dateEach) {
      if (named !== Date) throw this.dateTypeError(dto, property, true);
      return { date: true, each: true };
    }
    if (plan.date) {
      if (named !== Date && design !== Date) throw this.dateTypeError(dto, property, false);
      return { date: true, each: false };
    }
    // A property TypeScript types as Date (or that @Type names Date) is one even without @IsDate.
    if (named === Date) return { date: true, each: design === Array };
    return { date: design === Date, each: false };
  }

  private dateTypeError(dto: Constructor, property: string, each: boolean): DefinitionError {
    return new DefinitionError(
      DefinitionErrorCode.INVALID_SCHEMA,
      `${dto.name}.${property} has @IsDate(${each ? '{ each: true }' : ''}) but nothing says it holds ${each ? 'Dates' : 'a Date'}.`,
      [`Add @Type(() => Date) from class-transformer to ${dto.name}.${property}: it travels as a date-time string and the handler receives a Date.`],
    );
  }

  private nestedClass(dto: Constructor, property: string): Constructor | undefined {
    const typeMetadata = this.typeMetadata(dto, property);
    const fromTransformer = typeMetadata?.typeFunction?.() as unknown;
    if (isDtoClass(fromTransformer)) return fromTransformer;
    const design = designTypeOf(dto, property);
    if (isDtoClass(design)) return design;
    throw new DefinitionError(DefinitionErrorCode.INVALID_SCHEMA, `${dto.name}.${property} has @ValidateNested but its class is unknown.`, [
      `Add @Type(() => ChildDto) from class-transformer to ${dto.name}.${property}.`,
      'Arrays always need @Type: TypeScript does not record element types.',
    ]);
  }

  /**
   * The schema of a DTO that only ajv will check: a union member or a record's values, which
   * class-validator never descends into. A constraint only class-validator can run (a flagged
   * `@Matches`, `@ValidateIf`, a custom validator) would silently not hold there, so it is a
   * start-up error instead.
   */
  private ajvOnlySchema(type: Constructor, where: string, role: string): JsonSchema {
    const outer = this.needsClassValidator;
    this.needsClassValidator = false;
    const schema = this.objectSchema(type);
    if (this.needsClassValidator) {
      throw new DefinitionError(
        DefinitionErrorCode.INVALID_OPTIONS,
        `${type.name}, ${role} of ${where}, has a constraint only class-validator can check, and class-validator does not look inside unions and records.`,
        [
          `Say it in the schema instead: a mapped decorator, or @Field({ schema: { … } }) on that property of ${type.name}.`,
          'Or hold the value in a nested DTO (@ValidateNested() @Type(() => …)), which class-validator does check.',
        ],
      );
    }
    this.needsClassValidator = outer;
    return schema;
  }

  /** The union a property declares: with @Field({ oneOf }) or class-transformer's @Type discriminator. */
  private unionOf(dto: Constructor, property: string, field: FieldOptions | undefined): { schema: JsonSchema; conversion?: Conversion } | undefined {
    const discriminator = this.typeMetadata(dto, property)?.options?.discriminator;
    if (field?.oneOf !== undefined) return this.fieldUnion(dto, property, field.oneOf, field.discriminator);
    if (discriminator === undefined) return undefined;
    const keep = this.typeMetadata(dto, property)?.options?.keepDiscriminatorProperty === true;
    const choices = new Map<unknown, Constructor>();
    const variants: JsonSchema[] = [];
    for (const { name, value } of discriminator.subTypes) {
      choices.set(name, value as Constructor);
      variants.push(this.tagged(value as Constructor, discriminator.property, name, `${dto.name}.${property}`));
    }
    return { schema: { oneOf: variants }, conversion: { kind: 'union', property: discriminator.property, choices, keep } };
  }

  private fieldUnion(
    dto: Constructor,
    property: string,
    types: readonly FieldType[],
    discriminator: string | undefined,
  ): { schema: JsonSchema; conversion?: Conversion } {
    const where = `${dto.name}.${property}`;
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
      const schema = this.ajvOnlySchema(type, where, 'a member of the union');
      const tag = (schema.properties as Record<string, JsonSchema> | undefined)?.[discriminator];
      const value = tag?.const ?? (Array.isArray(tag?.enum) && tag.enum.length === 1 ? tag.enum[0] : undefined);
      if (value === undefined || !(schema.required as string[] | undefined)?.includes(discriminator)) {
        throw new DefinitionError(
          DefinitionErrorCode.INVALID_OPTIONS,
          `${type.name}.${discriminator} must hold one required value to tell ${where}'s classes apart.`,
          [`Declare it in ${type.name}: @Equals('${type.name.toLowerCase()}') ${discriminator}: '${type.name.toLowerCase()}';`],
        );
      }
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

  /** A variant of a class-transformer union: its schema with the discriminator fixed to its name. */
  private tagged(type: Constructor, property: string, value: string, where: string): JsonSchema {
    const schema = this.ajvOnlySchema(type, where, 'a member of the union');
    const tag = { const: value };
    if (schema.$ref !== undefined) return { allOf: [schema], properties: { [property]: tag }, required: [property] };
    const properties = { ...(schema.properties as Record<string, JsonSchema>), [property]: tag };
    const required = [...new Set([...((schema.required as string[] | undefined) ?? []), property])];
    return { ...schema, properties, required };
  }

  /** `@Field({ record })`: an object whose every value has one schema. */
  private recordOf(owner: Constructor, property: string, type: FieldType): { schema: JsonSchema; conversion?: Conversion } {
    const primitive = PRIMITIVE_TYPES.get(type);
    if (primitive) return { schema: { type: 'object', additionalProperties: { type: primitive } } };
    if (type === Date) return { schema: { type: 'object', additionalProperties: { ...DATE_TIME } }, conversion: { kind: 'record', values: { kind: 'date' } } };
    // Anything else must be a DTO: a class without metadata would give every value the schema of an empty object.
    const where = `${owner.name}.${property}`;
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
    const dto = type;
    const values = this.ajvOnlySchema(dto, where, 'the type of the values');
    return { schema: { type: 'object', additionalProperties: values }, conversion: { kind: 'record', values: { kind: 'dto', dto } } };
  }

  private propertySchema(
    dto: Constructor,
    property: string,
    plan: PropertyPlan,
    field: FieldOptions | undefined,
  ): { schema: JsonSchema; conversion?: Conversion; each: boolean } {
    let schema: JsonSchema;
    let conversion: Conversion | undefined;
    let each = false;
    if (field) checkFieldCombination(`${dto.name}.${property}`, field);
    const union = field?.schema === undefined ? this.unionOf(dto, property, field) : undefined;
    const date = field?.schema === undefined && !union ? this.isDateProperty(dto, property, plan) : { date: false, each: false };
    if (field?.schema !== undefined) {
      this.rawFields = true;
      // A raw schema for this field alone: taken as written, over whatever the decorators say.
      schema = { ...plan.typeKeywords, ...plan.keywords, ...field.schema };
    } else if (union) {
      each = plan.nestedEach || plan.typeKeywords.type === 'array' || designTypeOf(dto, property) === Array;
      schema = each ? { type: 'array', items: union.schema, ...plan.keywords } : { ...union.schema, ...plan.keywords };
      conversion = union.conversion;
    } else if (field?.record !== undefined) {
      const record = this.recordOf(dto, property, field.record);
      schema = { ...record.schema, ...plan.keywords };
      conversion = record.conversion;
    } else if (date.date && !date.each) {
      schema = { ...DATE_TIME, ...plan.keywords };
      conversion = { kind: 'date' };
    } else if (plan.nested && !plan.nestedEach) {
      const child = this.nestedClass(dto, property)!;
      schema = { ...this.objectSchema(child), ...plan.keywords };
      conversion = { kind: 'dto', dto: child };
    } else {
      schema = { ...plan.typeKeywords, ...plan.keywords };
      if (schema.type === undefined && schema.enum === undefined && schema.const === undefined) {
        const design = this.designType(dto, property);
        if (design) schema.type = design;
      }
      let items: JsonSchema;
      if (plan.nested) {
        const child = this.nestedClass(dto, property)!;
        items = this.objectSchema(child);
        conversion = { kind: 'dto', dto: child };
        each = true;
      } else if (date.each) {
        items = { ...DATE_TIME, ...plan.itemKeywords };
        conversion = { kind: 'date' };
        each = true;
      } else {
        items = { ...plan.itemType, ...plan.itemKeywords };
      }
      if (Object.keys(items).length > 0) {
        schema.type ??= 'array';
        schema.items = items;
      }
    }
    if (field) schema = withFieldOptions(`${dto.name}.${property}`, field, schema, field.schema !== undefined);
    if (field?.schema === undefined && isEmptySchema(schema)) throw emptySchemaError(dto, property);
    return { schema: orderKeywords(schema), conversion, each };
  }
}

// A stable key order keeps snapshots and the published schema readable.
const KEY_ORDER = [
  'title',
  'description',
  'type',
  'enum',
  'const',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'properties',
  'required',
  'additionalProperties',
  'oneOf',
  '$ref',
  '$defs',
];

function orderKeywords(schema: JsonSchema): JsonSchema {
  const ordered: JsonSchema = {};
  for (const key of KEY_ORDER) if (schema[key] !== undefined) ordered[key] = schema[key];
  for (const key of Object.keys(schema)) if (!(key in ordered) && schema[key] !== undefined) ordered[key] = schema[key];
  return ordered;
}

/**
 * Builds the JSON Schema (2020-12) of a DTO from its class-validator decorators and `@Field`
 * options: root `type: "object"`, nested DTOs inlined, a DTO that contains itself published once
 * under `$defs` and referenced with `$ref`. Runs once per DTO at start-up; a property whose schema
 * would say nothing (`{}`) or that no decorator names is a `DefinitionError`.
 *
 * @example
 * const { schema } = dtoToJsonSchema(CreateNoteInput);
 */
export function dtoToJsonSchema(dto: Constructor, options: DtoSchemaOptions = {}): DtoSchema {
  const builder = new SchemaBuilder(options);
  const schema = builder.root(dto);
  return {
    schema,
    needsClassValidator: builder.needsClassValidator,
    instantiate: buildInstantiator(dto, builder.plans),
    schemaChecked: builder.schemaChecked(),
    rawFields: builder.rawFields,
  };
}
