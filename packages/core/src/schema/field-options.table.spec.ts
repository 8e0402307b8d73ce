import { Type } from 'class-transformer';
import { Equals, IsArray, IsDate, IsEnum, IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { Field, type FieldOptions } from '../decorators/field.decorator';
import { DefinitionError } from '../errors/definition-error';
import { headerParamsOf } from '../scanner/header-params';
import { ValidatorFactory } from '../validation/validator-factory';
import { dtoToJsonSchema } from './dto-to-json-schema';

// Issue #27 item 10: every @Field option on every shape, read twice: the property's published
// schema, and the verdict of the validation path on values of that shape (ajv alone, and ajv then
// class-validator, which must agree). A combination that cannot be honoured is a DefinitionError
// naming the DTO and the field, never an option dropped without a word.

enum Color {
  Red = 'red',
  Blue = 'blue',
}

class Circle {
  @Equals('circle')
  kind: 'circle';

  @IsInt()
  radius: number;
}

class Square {
  @Equals('square')
  kind: 'square';

  @IsInt()
  side: number;
}

class Child {
  @IsString()
  name: string;
}

type Class = abstract new (...args: never[]) => unknown;
type Decorate = (proto: object, key: string, self: Class) => void;

/** One shape of property `v`: how it is declared, values it takes and values it refuses. */
interface Shape {
  readonly name: string;
  readonly declare: Decorate;
  /** The shape's own @Field options (record, oneOf, schema). */
  readonly field?: FieldOptions;
  readonly valid: readonly unknown[];
  readonly invalid: readonly unknown[];
  /** What the handler receives for `valid[0]`: the class of the instance, or the primitive itself. */
  readonly built?: Class;
  /** The property is a string a `format` can constrain. */
  readonly formats?: boolean;
  /** The property is one string, integer or boolean: it can be mirrored into a header. */
  readonly header?: boolean;
  /** Declared optional whatever the test says (a DTO that contains itself must end somewhere). */
  readonly optional?: boolean;
}

const design =
  (type: unknown): Decorate =>
  (proto, key) =>
    Reflect.defineMetadata('design:type', type, proto, key);
const all =
  (...decorators: Decorate[]): Decorate =>
  (proto, key, self) => {
    for (const decorate of decorators) decorate(proto, key, self);
  };
const pd =
  (decorator: PropertyDecorator): Decorate =>
  (proto, key) =>
    decorator(proto, key);

const RAW_ANY_OF = { anyOf: [{ type: 'string', minLength: 1 }, { type: 'integer' }] };

const SCALARS: Shape[] = [
  { name: 'scalar', declare: all(design(String), pd(IsString())), valid: ['a'], invalid: [3], formats: true, header: true },
  { name: 'enum', declare: all(design(String), pd(IsEnum(Color))), valid: ['red'], invalid: ['green'], formats: true, header: true },
  { name: 'constant', declare: all(design(String), pd(Equals('on'))), valid: ['on'], invalid: ['off'], formats: true },
  {
    name: 'date',
    declare: all(design(Date), pd(Type(() => Date)), pd(IsDate())),
    valid: ['2026-07-28T10:00:00Z'],
    invalid: ['soon'],
    built: Date,
    header: true,
  },
  {
    name: 'nested DTO',
    declare: all(design(Child), pd(ValidateNested()), pd(Type(() => Child))),
    valid: [{ name: 'a' }],
    invalid: [{ name: 3 }, 'a'],
    built: Child,
  },
  {
    name: 'recursive DTO',
    declare: (proto, key, self) => all(design(self), pd(IsOptional()), pd(ValidateNested()), pd(Type(() => self)))(proto, key, self),
    optional: true,
    valid: [{ id: 1 }, { id: 1, v: { id: 2 } }],
    invalid: [{ id: 'x' }, { id: 1, v: { id: 'x' } }],
    built: Object,
  },
  {
    name: 'union of DTOs',
    declare: design(Object),
    field: { oneOf: [Circle, Square], discriminator: 'kind' },
    valid: [{ kind: 'circle', radius: 1 }],
    invalid: [{ kind: 'circle', side: 1 }, { kind: 'triangle' }],
    built: Circle,
  },
  { name: 'union of primitives', declare: design(Object), field: { oneOf: [String, Number] }, valid: ['a', 2], invalid: [true] },
  { name: 'record', declare: design(Object), field: { record: String }, valid: [{ a: 'x' }], invalid: [{ a: 1 }] },
  { name: 'record of DTOs', declare: design(Object), field: { record: Child }, valid: [{ a: { name: 'x' } }], invalid: [{ a: { name: 1 } }] },
  {
    name: 'raw schema',
    declare: design(Object),
    field: { schema: { type: 'string', minLength: 2 } },
    valid: ['ab'],
    invalid: ['a', 3],
    formats: true,
    header: true,
  },
  { name: 'raw anyOf', declare: design(Object), field: { schema: RAW_ANY_OF }, valid: ['a', 2], invalid: ['', true] },
  { name: 'raw $ref-free object', declare: design(Object), field: { schema: { type: 'object', required: ['a'] } }, valid: [{ a: 1 }], invalid: [{}] },
];

/** The same shape, as an array of it (`each` decorators, `@IsArray()` beside a union, `items` in a raw schema). */
function arrayOf(shape: Shape): Shape | undefined {
  const list = { valid: [[...shape.valid]], invalid: shape.invalid.map((value) => [value]) };
  const base = { ...list, name: `array of ${shape.name}`, built: undefined };
  switch (shape.name) {
    case 'scalar':
      return { ...base, declare: all(design(Array), pd(IsArray()), pd(IsString({ each: true }))) };
    case 'enum':
      return { ...base, declare: all(design(Array), pd(IsArray()), pd(IsEnum(Color, { each: true }))) };
    case 'date':
      return { ...base, declare: all(design(Array), pd(IsArray()), pd(Type(() => Date)), pd(IsDate({ each: true }))) };
    case 'nested DTO':
      return { ...base, declare: all(design(Array), pd(IsArray()), pd(ValidateNested({ each: true })), pd(Type(() => Child))) };
    case 'recursive DTO':
      return {
        ...base,
        optional: true,
        valid: [[{ id: 1 }, { id: 2, v: [{ id: 3 }] }]],
        invalid: [[{ id: 'x' }], [{ id: 1, v: [{ id: 'x' }] }]],
        declare: (proto, key, self) =>
          all(design(Array), pd(IsOptional()), pd(IsArray()), pd(ValidateNested({ each: true })), pd(Type(() => self)))(proto, key, self),
      };
    case 'union of DTOs':
    case 'union of primitives':
      return { ...base, declare: all(design(Array), pd(IsArray())), field: shape.field };
    case 'raw anyOf':
      return { ...base, declare: design(Array), field: { schema: { type: 'array', items: RAW_ANY_OF } } };
    default:
      // A record or a raw object has no array form of its own: a raw schema says it.
      return undefined;
  }
}

const SHAPES: Shape[] = [...SCALARS, ...SCALARS.map(arrayOf).filter((shape): shape is Shape => shape !== undefined)];

/** A fresh DTO with an `id` and the property `v` of this shape, with these extra @Field options. */
function dtoOf(shape: Shape, options: FieldOptions, optional = false): new () => object {
  const name = `${shape.name.replace(/[^A-Za-z]+(.)?/g, (_, next: string | undefined) => (next ?? '').toUpperCase())}Dto`;
  const Dto = { [name]: class {} }[name] as new () => object;
  const proto = Dto.prototype as object;
  design(Number)(proto, 'id', Dto);
  IsInt()(proto, 'id');
  shape.declare(proto, 'v', Dto);
  if (optional) IsOptional()(proto, 'v');
  if (shape.field || Object.keys(options).length > 0) Field({ ...shape.field, ...options })(proto, 'v');
  return Dto;
}

const factory = new ValidatorFactory();

/** The verdict of the input parser on `{ id: 1, v }`, with class-validator after ajv when `classValidator`. */
async function verdict(Dto: new () => object, args: Record<string, unknown>, classValidator: boolean) {
  const { schema, needsClassValidator, instantiate, schemaChecked } = dtoToJsonSchema(Dto);
  const parse = factory.inputParser({
    schema,
    dto: Dto,
    needsClassValidator: needsClassValidator || classValidator,
    instantiate,
    schemaChecked,
    stripUnknown: true,
    generated: true,
  });
  return parse(args);
}

async function expectVerdicts(Dto: new () => object, accepted: readonly unknown[], refused: readonly unknown[]): Promise<void> {
  for (const classValidator of [false, true]) {
    for (const v of accepted) {
      const outcome = await verdict(Dto, { id: 1, v }, classValidator);
      expect({ v, classValidator, ok: outcome.ok, problems: outcome.ok ? undefined : outcome.problems }).toEqual({
        v,
        classValidator,
        ok: true,
        problems: undefined,
      });
    }
    for (const v of refused) expect({ v, classValidator, ok: (await verdict(Dto, { id: 1, v }, classValidator)).ok }).toEqual({ v, classValidator, ok: false });
  }
}

function published(Dto: new () => object): { v: Record<string, unknown>; schema: Record<string, any> } {
  const { schema } = dtoToJsonSchema(Dto);
  return { v: (schema.properties as Record<string, Record<string, unknown>>).v, schema };
}

function definitionError(run: () => unknown): DefinitionError {
  try {
    run();
  } catch (error) {
    if (error instanceof DefinitionError) return error;
    throw error;
  }
  throw new Error('expected a DefinitionError');
}

describe.each(SHAPES.map((shape) => [shape.name, shape] as const))('@Field options on %s', (_name, shape) => {
  it('without options: takes its values and refuses the others, null included', async () => {
    await expectVerdicts(dtoOf(shape, {}), shape.valid, [...shape.invalid, null]);
  });

  it('nullable: publishes null as a choice and takes null, still refusing the others', async () => {
    const Dto = dtoOf(shape, { nullable: true });
    const { v } = published(Dto);
    const types = v.type === undefined ? [] : [v.type].flat();
    const choices = [...((v.anyOf as unknown[]) ?? []), ...((v.oneOf as unknown[]) ?? [])];
    expect(types.includes('null') || choices.some((choice) => JSON.stringify(choice) === '{"type":"null"}')).toBe(true);
    await expectVerdicts(Dto, [...shape.valid, null], shape.invalid);
    const outcome = await verdict(Dto, { id: 1, v: null }, false);
    expect(outcome.ok && (outcome.value as { v: unknown }).v).toBeNull();
  });

  it.each<[string, FieldOptions, Record<string, unknown>]>([
    ['description', { description: 'What it is' }, { description: 'What it is' }],
    ['title', { title: 'It' }, { title: 'It' }],
    ['examples', { examples: ['e'] }, { examples: ['e'] }],
    ['deprecated', { deprecated: true }, { deprecated: true }],
  ])('%s: publishes the annotation and changes no verdict', async (_option, options, annotation) => {
    const Dto = dtoOf(shape, options);
    expect(published(Dto).v).toMatchObject(annotation);
    await expectVerdicts(Dto, shape.valid, shape.invalid);
  });

  it(`default: ${shape.optional ? 'a start-up error naming the field: it would be built inside itself without end' : 'published, and the handler gets it, built like a value sent, when the property is left out'}`, async () => {
    const value = shape.valid[0];
    if (shape.optional) {
      expect(definitionError(() => dtoToJsonSchema(dtoOf(shape, { default: value }, true))).message).toMatch(/Dto\.v has @Field\(\{ default \}\)/);
      const Dto = dtoOf(shape, { nullable: true, default: null }, true);
      const outcome = await verdict(Dto, { id: 1 }, false);
      expect(outcome.ok && (outcome.value as { v: unknown }).v).toBeNull();
      return;
    }
    const Dto = dtoOf(shape, { default: value }, true);
    expect(published(Dto).v.default).toEqual(value);
    for (const classValidator of [false, true]) {
      const outcome = await verdict(Dto, { id: 1 }, classValidator);
      const sent = await verdict(Dto, { id: 1, v: value }, classValidator);
      expect(outcome.ok && sent.ok).toBe(true);
      const got = outcome.ok ? (outcome.value as { v: unknown }).v : undefined;
      expect(got).toEqual(sent.ok ? (sent.value as { v: unknown }).v : undefined);
      if (shape.built) expect(got).toBeInstanceOf(shape.built);
    }
  });

  it(`format: ${shape.formats ? 'enforced on a string' : 'a start-up error naming the field: it would constrain nothing'}`, async () => {
    if (!shape.formats) {
      expect(definitionError(() => dtoToJsonSchema(dtoOf(shape, { format: 'email' }))).message).toMatch(/Dto\.v has @Field\(\{ format: "email" \}\)/);
      return;
    }
    const Dto = dtoOf(shape, { format: 'email' });
    expect(published(Dto).v).toMatchObject({ type: 'string', format: 'email' });
    await expectVerdicts(Dto, [], [...shape.valid, ...shape.invalid]);
  });

  it(`header: ${shape.header ? 'published as x-mcp-header' : 'a start-up error naming the field: it cannot be mirrored'}`, async () => {
    if (!shape.header) {
      expect(definitionError(() => dtoToJsonSchema(dtoOf(shape, { header: 'Region' }))).message).toMatch(/Dto\.v has @Field\(\{ header: "Region" \}\)/);
      return;
    }
    const Dto = dtoOf(shape, { header: 'Region' });
    const { v, schema } = published(Dto);
    expect(v['x-mcp-header']).toBe('Region');
    expect(headerParamsOf(schema, 'the tool').map((param) => param.path)).toEqual([['v']]);
    await expectVerdicts(Dto, shape.valid, shape.invalid);
  });

  it('publishes the schemas the snapshot holds', () => {
    const schemas: Record<string, unknown> = {};
    for (const [option, options] of Object.entries<FieldOptions>({ none: {}, nullable: { nullable: true }, description: { description: 'd' } })) {
      schemas[option] = published(dtoOf(shape, options)).schema;
    }
    expect(schemas).toMatchSnapshot();
  });
});
