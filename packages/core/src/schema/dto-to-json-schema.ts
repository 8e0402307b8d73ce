import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type {
  ARRAY_MAX_SIZE,
  ARRAY_MIN_SIZE,
  ARRAY_NOT_EMPTY,
  ARRAY_UNIQUE,
  EQUALS,
  IS_ARRAY,
  IS_BOOLEAN,
  IS_EMAIL,
  IS_ENUM,
  IS_IN,
  IS_INT,
  IS_LENGTH,
  IS_NEGATIVE,
  IS_NOT_EMPTY,
  IS_NUMBER,
  IS_OBJECT,
  IS_POSITIVE,
  IS_STRING,
  IS_UUID,
  MATCHES,
  MAX,
  MAX_LENGTH,
  MIN,
  MIN_LENGTH,
} from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { FIELD_LIST_METADATA, FIELD_METADATA } from '../metadata/metadata-keys';
import type { FieldOptions } from '../decorators/field.decorator';
import type { Constructor } from '../metadata/constructor';
import type { JsonSchema } from '../protocol/mcp-types';

/** The published schema of a DTO, and whether class-validator must still run after ajv. */
export interface DtoSchema {
  schema: JsonSchema;
  /** Some constraint had no JSON Schema form (a custom validator, `@ValidateIf` …). */
  needsClassValidator: boolean;
  /**
   * Builds the DTO instance from validated plain data: a fast path equal to class-transformer's
   * `plainToInstance` for DTOs that use only `@Type` for nested DTOs, taking only the properties
   * the DTOs declare (so unknown ones never reach the handler, in one pass, and the plain data is
   * never changed); undefined when the DTO uses other class-transformer features (`@Transform`,
   * `@Expose`, `@Exclude` …).
   */
  instantiate: ((plain: Record<string, unknown>) => object) | undefined;
}

export interface DtoSchemaOptions {
  /** Publish `additionalProperties: false` on every object. */
  strict?: boolean;
}

type Keywords = Record<string, unknown>;
// Each class-validator decorator name that JSON Schema can say, and what it says. A decorator
// missing here is "custom": it keeps class-validator in the loop for that DTO.
type Mapper = (constraints: unknown[], type: string | undefined) => Keywords | undefined;

// class-validator's decorator names, spelled here (and checked against its types) rather than
// read from it: each name lives in its decorator's module, which with mcpkit's start-up loading
// loads only once an app uses that decorator (startup/defer-leaf-modules.ts).
const DECORATOR = {
  ARRAY_MAX_SIZE: 'arrayMaxSize' satisfies typeof ARRAY_MAX_SIZE,
  ARRAY_MIN_SIZE: 'arrayMinSize' satisfies typeof ARRAY_MIN_SIZE,
  ARRAY_NOT_EMPTY: 'arrayNotEmpty' satisfies typeof ARRAY_NOT_EMPTY,
  ARRAY_UNIQUE: 'arrayUnique' satisfies typeof ARRAY_UNIQUE,
  EQUALS: 'equals' satisfies typeof EQUALS,
  IS_ARRAY: 'isArray' satisfies typeof IS_ARRAY,
  IS_BOOLEAN: 'isBoolean' satisfies typeof IS_BOOLEAN,
  IS_EMAIL: 'isEmail' satisfies typeof IS_EMAIL,
  IS_ENUM: 'isEnum' satisfies typeof IS_ENUM,
  IS_IN: 'isIn' satisfies typeof IS_IN,
  IS_INT: 'isInt' satisfies typeof IS_INT,
  IS_LENGTH: 'isLength' satisfies typeof IS_LENGTH,
  IS_NEGATIVE: 'isNegative' satisfies typeof IS_NEGATIVE,
  IS_NOT_EMPTY: 'isNotEmpty' satisfies typeof IS_NOT_EMPTY,
  IS_NUMBER: 'isNumber' satisfies typeof IS_NUMBER,
  IS_OBJECT: 'isObject' satisfies typeof IS_OBJECT,
  IS_POSITIVE: 'isPositive' satisfies typeof IS_POSITIVE,
  IS_STRING: 'isString' satisfies typeof IS_STRING,
  IS_UUID: 'isUuid' satisfies typeof IS_UUID,
  MATCHES: 'matches' satisfies typeof MATCHES,
  MAX: 'max' satisfies typeof MAX,
  MAX_LENGTH: 'maxLength' satisfies typeof MAX_LENGTH,
  MIN: 'min' satisfies typeof MIN,
  MIN_LENGTH: 'minLength' satisfies typeof MIN_LENGTH,
} as const;

const TYPE_DECORATORS: Record<string, string> = {
  [DECORATOR.IS_STRING]: 'string',
  [DECORATOR.IS_NUMBER]: 'number',
  [DECORATOR.IS_INT]: 'integer',
  [DECORATOR.IS_BOOLEAN]: 'boolean',
  [DECORATOR.IS_ARRAY]: 'array',
  [DECORATOR.IS_OBJECT]: 'object',
};

// validator.js's isUUID without a version: exactly this, no `urn:uuid:` prefix (which ajv's format allows).
const UUID_PATTERN = '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$';

function enumValues(entity: unknown): unknown[] {
  if (Array.isArray(entity)) return entity;
  // A TypeScript numeric enum also maps values back to names; keep only the real members.
  return Object.entries(entity as Record<string, unknown>)
    .filter(([key]) => !/^\d+$/.test(key))
    .map(([, value]) => value);
}

function enumKeywords(values: unknown[]): Keywords {
  const types = [...new Set(values.map((value) => (typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value)))];
  const normalised = types.length === 2 && types.includes('integer') && types.includes('number') ? ['number'] : types;
  return normalised.length === 1 ? { type: normalised[0], enum: values } : { enum: values };
}

const KEYWORD_MAPPERS: Record<string, Mapper> = {
  [DECORATOR.IS_ENUM]: ([entity]) => enumKeywords(enumValues(entity)),
  [DECORATOR.IS_IN]: ([values]) => enumKeywords(values as unknown[]),
  [DECORATOR.EQUALS]: ([value]) => ({ const: value }),
  [DECORATOR.MIN_LENGTH]: ([min]) => ({ minLength: min }),
  [DECORATOR.MAX_LENGTH]: ([max]) => ({ maxLength: max }),
  [DECORATOR.IS_LENGTH]: ([min, max]) => (max === undefined ? { minLength: min } : { minLength: min, maxLength: max }),
  [DECORATOR.MIN]: ([min]) => ({ minimum: min }),
  [DECORATOR.MAX]: ([max]) => ({ maximum: max }),
  [DECORATOR.IS_POSITIVE]: () => ({ exclusiveMinimum: 0 }),
  [DECORATOR.IS_NEGATIVE]: () => ({ exclusiveMaximum: 0 }),
  [DECORATOR.MATCHES]: ([pattern, modifiers]) => {
    const regex = pattern as RegExp | string;
    const flags = typeof regex === 'string' ? ((modifiers as string | undefined) ?? '') : regex.flags;
    // JSON Schema patterns have no flags: a flagged regex stays with class-validator.
    if (flags.replace(/[gyu]/g, '') !== '') return undefined;
    return { pattern: typeof regex === 'string' ? regex : regex.source };
  },
  [DECORATOR.IS_EMAIL]: ([options]) => (options === undefined ? { format: 'email' } : undefined),
  [DECORATOR.IS_UUID]: ([version]) => (version === undefined || version === 'all' ? { format: 'uuid', pattern: UUID_PATTERN } : undefined),
  [DECORATOR.ARRAY_MIN_SIZE]: ([min]) => ({ minItems: min }),
  [DECORATOR.ARRAY_MAX_SIZE]: ([max]) => ({ maxItems: max }),
  [DECORATOR.ARRAY_NOT_EMPTY]: () => ({ minItems: 1 }),
  [DECORATOR.ARRAY_UNIQUE]: ([selector]) => (selector === undefined ? { uniqueItems: true } : undefined),
  [DECORATOR.IS_NOT_EMPTY]: (_, type) => (type === 'string' ? { minLength: 1 } : type === 'array' ? { minItems: 1 } : undefined),
};

interface PropertyPlan {
  typeKeywords: Keywords;
  keywords: Keywords;
  itemType: Keywords;
  itemKeywords: Keywords;
  optional: boolean;
  nested?: Constructor;
  nestedEach: boolean;
}

function isDtoClass(value: unknown): value is Constructor {
  return typeof value === 'function' && ![String, Number, Boolean, Array, Object, Date].includes(value as never);
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

/** Nested DTO properties per DTO class, as the schema builder found them. */
type NestedMap = Map<Constructor, Map<string, { dto: Constructor; each: boolean }>>;

// class-transformer keeps these per class; any of them means plainToInstance must do the work.
function usesTransformerFeatures(dto: Constructor): boolean {
  const storage = defaultMetadataStorage as unknown as Record<string, Map<unknown, unknown> | undefined>;
  for (let type: unknown = dto; typeof type === 'function' && type !== Function.prototype; type = Object.getPrototypeOf(type)) {
    for (const key of ['_transformMetadatas', '_exposeMetadatas', '_excludeMetadatas']) if (storage[key]?.has(type)) return true;
  }
  return false;
}

/**
 * Copies the declared properties present in `plain` onto the instance. Compiled once per DTO to
 * one statement per property: with the names as constants, each access stays monomorphic, where
 * a loop over a list of names is a slow keyed lookup. Names are embedded as JSON strings; a name
 * that every object inherits (`toString` …) is taken only when the data has it as its own.
 */
function declaredCopier(keys: readonly string[]): (instance: Record<string, unknown>, plain: Record<string, unknown>) => void {
  const statements = keys.map((key) => {
    const name = JSON.stringify(key);
    const guard = key in Object.prototype ? `Object.prototype.hasOwnProperty.call(p, ${name}) && ` : '';
    return `if (${guard}(v = p[${name}]) !== undefined) o[${name}] = v;`;
  });
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function('o', 'p', `let v;\n${statements.join('\n')}`) as (instance: Record<string, unknown>, plain: Record<string, unknown>) => void;
}

function buildInstantiator(
  dto: Constructor,
  nested: NestedMap,
  declared: ReadonlyMap<Constructor, readonly string[]>,
  built = new Map<Constructor, (plain: Record<string, unknown>) => object>(),
): ((plain: Record<string, unknown>) => object) | undefined {
  const existing = built.get(dto);
  if (existing) return existing;
  if (usesTransformerFeatures(dto)) return undefined;
  const children = [...(nested.get(dto) ?? new Map()).entries()];
  const copyDeclared = declaredCopier(declared.get(dto) ?? []);
  const make = (plain: Record<string, unknown>): object => {
    // Like plainToInstance with exposeDefaultValues: the constructor sets defaults, the data wins;
    // only declared properties are taken.
    const instance = new dto() as Record<string, unknown>;
    copyDeclared(instance, plain);
    for (const [key, child] of resolved) {
      const value = instance[key];
      if (value === null || value === undefined) continue;
      if (child.each && Array.isArray(value))
        instance[key] = value.map((item) => (typeof item === 'object' && item !== null ? child.make(item as Record<string, unknown>) : item));
      else if (typeof value === 'object') instance[key] = child.make(value as Record<string, unknown>);
    }
    return instance;
  };
  built.set(dto, make);
  const resolved: Array<[string, { each: boolean; make: (plain: Record<string, unknown>) => object }]> = [];
  for (const [key, child] of children) {
    const childMake = buildInstantiator(child.dto, nested, declared, built);
    if (!childMake) {
      built.delete(dto);
      return undefined;
    }
    resolved.push([key, { each: child.each, make: childMake }]);
  }
  return make;
}

class SchemaBuilder {
  needsClassValidator = false;
  readonly nested: NestedMap = new Map();
  /** The properties each DTO declares (its schema's `properties`), in order. */
  readonly declared = new Map<Constructor, string[]>();
  private readonly stack: Constructor[] = [];

  constructor(private readonly options: DtoSchemaOptions) {}

  objectSchema(dto: Constructor): JsonSchema {
    if (this.stack.includes(dto)) {
      throw new DefinitionError(
        DefinitionErrorCode.INVALID_SCHEMA,
        `DTO ${dto.name} contains itself (${[...this.stack, dto].map((c) => c.name).join(' → ')}); nested DTOs are inlined.`,
        ['Break the cycle, e.g. refer to the child by id.', 'Or give the tool a raw JSON Schema with `inputSchema` (it may use $defs and $ref).'],
      );
    }
    this.stack.push(dto);
    const byProperty = readValidationMetadata(dto);
    for (const name of readFieldNames(dto)) if (!byProperty.has(name)) byProperty.set(name, []);
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    this.declared.set(dto, [...byProperty.keys()]);
    for (const [name, metadatas] of byProperty) {
      const plan = this.plan(dto, name, metadatas);
      properties[name] = this.propertySchema(dto, name, plan);
      if (!plan.optional) required.push(name);
    }
    this.stack.pop();
    const schema: JsonSchema = { type: 'object', properties };
    if (required.length > 0) schema.required = required;
    if (this.options.strict) schema.additionalProperties = false;
    return schema;
  }

  private plan(dto: Constructor, property: string, metadatas: ValidationMetadata[]): PropertyPlan {
    const plan: PropertyPlan = { typeKeywords: {}, keywords: {}, itemType: {}, itemKeywords: {}, optional: false, nestedEach: false };
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
          plan.nestedEach = metadata.each === true;
          plan.nested = this.nestedClass(dto, property);
          if (plan.nested) {
            const children = this.nested.get(dto) ?? new Map();
            children.set(property, { dto: plan.nested, each: plan.nestedEach });
            this.nested.set(dto, children);
          }
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
      const typeName = TYPE_DECORATORS[name];
      if (typeName) {
        if (each) plan.itemType = { type: typeName };
        else plan.typeKeywords = { type: typeName };
        continue;
      }
      const mapper = KEYWORD_MAPPERS[name];
      const target = each ? plan.itemKeywords : plan.keywords;
      const currentType = (each ? plan.itemType.type : plan.typeKeywords.type) as string | undefined;
      const keywords = mapper?.((metadata.constraints ?? []) as unknown[], currentType ?? this.designType(dto, property));
      if (keywords === undefined) {
        this.needsClassValidator = true;
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
    const type: unknown = Reflect.getMetadata('design:type', dto.prototype, property);
    if (type === String) return 'string';
    if (type === Number) return 'number';
    if (type === Boolean) return 'boolean';
    if (type === Array) return 'array';
    return undefined;
  }

  private nestedClass(dto: Constructor, property: string): Constructor | undefined {
    const typeMetadata = defaultMetadataStorage.findTypeMetadata(dto, property);
    const fromTransformer = typeMetadata?.typeFunction?.() as unknown;
    if (isDtoClass(fromTransformer)) return fromTransformer;
    const design: unknown = Reflect.getMetadata('design:type', dto.prototype, property);
    if (isDtoClass(design)) return design;
    throw new DefinitionError(DefinitionErrorCode.INVALID_SCHEMA, `${dto.name}.${property} has @ValidateNested but its class is unknown.`, [
      `Add @Type(() => ChildDto) from class-transformer to ${dto.name}.${property}.`,
      'Arrays always need @Type: TypeScript does not record element types.',
    ]);
  }

  private propertySchema(dto: Constructor, property: string, plan: PropertyPlan): JsonSchema {
    const field = Reflect.getMetadata(FIELD_METADATA, dto.prototype, property) as FieldOptions | undefined;
    let schema: JsonSchema;
    if (plan.nested && !plan.nestedEach) {
      schema = { ...this.objectSchema(plan.nested), ...plan.keywords };
    } else {
      schema = { ...plan.typeKeywords, ...plan.keywords };
      if (schema.type === undefined && schema.enum === undefined && schema.const === undefined) {
        const design = this.designType(dto, property);
        if (design) schema.type = design;
      }
      const items: JsonSchema = plan.nested ? this.objectSchema(plan.nested) : { ...plan.itemType, ...plan.itemKeywords };
      if (Object.keys(items).length > 0) {
        schema.type ??= 'array';
        schema.items = items;
      }
    }
    if (field) {
      if (field.title !== undefined) schema.title = field.title;
      if (field.description !== undefined) schema.description = field.description;
      if (field.default !== undefined) schema.default = field.default;
      if (field.examples !== undefined) schema.examples = field.examples;
      if (field.deprecated) schema.deprecated = true;
      if (field.header !== undefined) schema['x-mcp-header'] = field.header;
      if (field.nullable) {
        if (typeof schema.type === 'string') schema.type = [schema.type, 'null'];
        if (Array.isArray(schema.enum)) schema.enum = [...schema.enum, null];
      }
    }
    return orderKeywords(schema);
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
];

function orderKeywords(schema: JsonSchema): JsonSchema {
  const ordered: JsonSchema = {};
  for (const key of KEY_ORDER) if (schema[key] !== undefined) ordered[key] = schema[key];
  for (const key of Object.keys(schema)) if (!(key in ordered) && schema[key] !== undefined) ordered[key] = schema[key];
  return ordered;
}

/**
 * Builds the JSON Schema (2020-12) of a DTO from its class-validator decorators and `@Field`
 * descriptions: root `type: "object"`, nested DTOs inlined. Runs once per DTO at start-up.
 *
 * @example
 * const { schema } = dtoToJsonSchema(CreateNoteInput);
 */
export function dtoToJsonSchema(dto: Constructor, options: DtoSchemaOptions = {}): DtoSchema {
  const builder = new SchemaBuilder(options);
  const schema = builder.objectSchema(dto);
  return { schema, needsClassValidator: builder.needsClassValidator, instantiate: buildInstantiator(dto, builder.nested, builder.declared) };
}
