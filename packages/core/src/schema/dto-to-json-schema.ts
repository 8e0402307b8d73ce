import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { FIELD_METADATA } from '../metadata/metadata-keys';
import type { FieldOptions } from '../decorators/field.decorator';
import type { Constructor } from '../metadata/constructor';
import type { JsonSchema } from '../protocol/mcp-types';
import type { SchemaChecked } from '../validation/drop-schema-checked';
import { buildInstantiator, type ConvertedProperty, type InstancePlan } from './dto-instantiator';
import { readFieldNames, readValidationMetadata, sampleOf } from './dto-metadata';
import { checkDeclared, checkDefault } from './property-checks';
import { planProperty } from './property-plan';
import { propertySchema, type PropertyContext } from './property-schema';

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

type ByProperty = Map<Constructor, Map<string, Set<string>>>;

/** What one DTO's properties publish, and what its instances need. */
interface ObjectParts {
  properties: Record<string, JsonSchema>;
  required: string[];
  converted: ConvertedProperty[];
  defaults: Array<readonly [string, unknown]>;
}

class SchemaBuilder implements PropertyContext {
  needsClassValidator = false;
  readonly rawParts: JsonSchema[] = [];
  /** What each DTO's instances need: declared properties, conversions, defaults. */
  readonly plans = new Map<Constructor, InstancePlan>();
  private readonly stack: Constructor[] = [];
  // Classes met inside themselves: published once under $defs and referenced.
  private readonly recursive = new Set<Constructor>();
  private readonly defNames = new Map<Constructor, string>();
  // By class and property: the constraint names the schema says, and those it could not say (a
  // name in both, say two @IsUrl with different options, stays with class-validator).
  private readonly mapped: ByProperty = new Map();
  private readonly unmapped: ByProperty = new Map();

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

  private note(into: ByProperty, dto: Constructor, property: string, name: string): void {
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
    if (sample) checkDeclared(dto, sample, byProperty);
    const parts: ObjectParts = { properties: {}, required: [], converted: [], defaults: [] };
    for (const [name, metadatas] of byProperty) this.addProperty(parts, dto, name, metadatas, sample);
    const { properties, required, converted, defaults } = parts;
    this.plans.set(dto, { declared: [...byProperty.keys()], converted, defaults });
    this.stack.pop();
    const schema: JsonSchema = { type: 'object', properties };
    if (required.length > 0) schema.required = required;
    if (this.options.strict) schema.additionalProperties = false;
    return schema;
  }

  private addProperty(parts: ObjectParts, dto: Constructor, name: string, metadatas: ValidationMetadata[], sample: Record<string, unknown> | undefined): void {
    const field = Reflect.getMetadata(FIELD_METADATA, dto.prototype, name) as FieldOptions | undefined;
    const plan = planProperty(dto, name, metadatas, {
      needsClassValidator: () => (this.needsClassValidator = true),
      constraint: (constraint, mapped) => this.note(mapped ? this.mapped : this.unmapped, dto, name, constraint),
    });
    const { schema, conversion, each } = propertySchema(this, dto, name, plan, field);
    parts.properties[name] = schema;
    if (field?.schema !== undefined) this.rawParts.push(schema);
    if (conversion) parts.converted.push({ key: name, each, conversion });
    if (field?.default !== undefined) {
      checkDefault(dto, name, field.default, sample, schema);
      parts.defaults.push([name, field.default]);
    }
    if (!plan.optional) parts.required.push(name);
  }

  /**
   * The schema of a DTO that only ajv will check: a union member or a record's values, which
   * class-validator never descends into. A constraint only class-validator can run (a flagged
   * `@Matches`, `@ValidateIf`, a custom validator) would silently not hold there, so it is a
   * start-up error instead.
   */
  readonly member = (type: Constructor, where: string, role: string): JsonSchema => {
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
  };
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
  const { rawParts: _rawParts, ...built } = buildDtoSchema(dto, options);
  return built;
}

/** What the scanner builds of a DTO: its {@link DtoSchema}, and its raw parts to check. */
export interface BuiltDtoSchema extends DtoSchema {
  /**
   * The schemas of the properties that carry a raw `@Field({ schema })`, with what the decorators
   * and the other `@Field` options add to them: the parts of `schema` a user wrote.
   */
  rawParts: JsonSchema[];
}

/** {@link dtoToJsonSchema}, with the raw parts the scanner checks at start-up. @internal */
export function buildDtoSchema(dto: Constructor, options: DtoSchemaOptions = {}): BuiltDtoSchema {
  const builder = new SchemaBuilder(options);
  const schema = builder.root(dto);
  return {
    schema,
    needsClassValidator: builder.needsClassValidator,
    instantiate: buildInstantiator(dto, builder.plans),
    schemaChecked: builder.schemaChecked(),
    rawFields: builder.rawParts.length > 0,
    rawParts: builder.rawParts,
  };
}
