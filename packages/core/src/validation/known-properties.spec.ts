import 'reflect-metadata';
import Ajv2020 from 'ajv/dist/2020';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Validate, ValidateNested, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import { dtoToJsonSchema } from '../schema/dto-to-json-schema';
import { knownPropertiesPicker } from './known-properties';
import { ValidatorFactory } from './validator-factory';

class Part {
  @IsString()
  label: string;
}

@ValidatorConstraint({ name: 'notTaboo' })
class NotTaboo implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return value !== 'taboo';
  }
}

class Order {
  @IsString()
  topic: string;

  @IsOptional()
  @IsInt()
  count?: number;

  @IsOptional()
  @ValidateNested()
  @Type(() => Part)
  main?: Part;

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => Part)
  parts?: Part[];
}

class Checked {
  @IsString()
  @Validate(NotTaboo)
  word: string;
}

const hostile = () => ({
  topic: 't',
  unknown_extra: 1,
  count: 2,
  main: { label: 'm', hidden: { deep: [1, 2] } },
  parts: [{ label: 'a' }, { label: 'b', more: true }],
  tail: 'x',
});

describe('knownPropertiesPicker', () => {
  const { schema } = dtoToJsonSchema(Order);
  const pick = knownPropertiesPicker(schema);

  it('keeps what ajv removeAdditional: "all" kept, without touching its input', () => {
    const input = hostile();
    const before = structuredClone(input);
    const picked = pick(input);
    const reference = structuredClone(input);
    new Ajv2020({ removeAdditional: 'all', strict: false }).compile(schema)(reference);
    expect(picked).toEqual(reference);
    expect(input).toEqual(before);
    // Untouched branches are shared, changed ones copied.
    expect((picked as { parts: unknown[] }).parts[0]).toBe(input.parts[0]);
    expect((picked as { parts: unknown[] }).parts[1]).not.toBe(input.parts[1]);
  });

  it('returns the very same object when nothing is unknown', () => {
    const input = { topic: 't', main: { label: 'm' }, parts: [{ label: 'a' }] };
    expect(pick(input)).toBe(input);
  });

  it('drops an own __proto__ key a JSON client may send', () => {
    const input = JSON.parse('{"topic":"t","__proto__":{"polluted":true}}') as Record<string, unknown>;
    const picked = pick(input) as Record<string, unknown>;
    expect(Object.keys(picked)).toEqual(['topic']);
    expect(Object.getPrototypeOf(picked)).toBe(Object.prototype);
  });
});

describe('ValidatorFactory.inputParser never changes the incoming message', () => {
  const factory = new ValidatorFactory();

  it.each([
    [
      'a DTO (fast instantiation)',
      () =>
        factory.inputParser({
          schema: dtoToJsonSchema(Order).schema,
          dto: Order,
          stripUnknown: true,
          generated: true,
          instantiate: dtoToJsonSchema(Order).instantiate,
        }),
    ],
    ['a DTO (plainToInstance)', () => factory.inputParser({ schema: dtoToJsonSchema(Order).schema, dto: Order, stripUnknown: true, generated: true })],
    ['no DTO', () => factory.inputParser({ schema: { type: 'object', properties: {} }, stripUnknown: true, generated: true })],
  ])('leaves params deep-equal for %s, and the handler still gets no unknown keys', async (_, build) => {
    const params = { name: 'draft_note', arguments: hostile() };
    const before = structuredClone(params);
    const outcome = await build()(params.arguments);
    expect(params).toEqual(before);
    expect(outcome.ok).toBe(true);
    const value = (outcome as { value: Record<string, unknown> }).value;
    expect(value).not.toHaveProperty('unknown_extra');
    expect(value).not.toHaveProperty('tail');
  });

  it('leaves params deep-equal when a custom class-validator constraint runs too', async () => {
    const built = dtoToJsonSchema(Checked);
    expect(built.needsClassValidator).toBe(true);
    const parse = factory.inputParser({
      schema: built.schema,
      dto: Checked,
      needsClassValidator: true,
      stripUnknown: true,
      generated: true,
      instantiate: built.instantiate,
    });
    const args = { word: 'fine', extra: { x: 1 } };
    const outcome = await parse(args);
    expect(args).toEqual({ word: 'fine', extra: { x: 1 } });
    expect(outcome).toEqual({ ok: true, value: expect.any(Checked) });
    expect((outcome as { value: object }).value).not.toHaveProperty('extra');
    expect(await parse({ word: 'taboo', extra: 1 })).toMatchObject({ ok: false });
  });

  it('leaves params deep-equal when the arguments are invalid', () => {
    const parse = factory.inputParser({ schema: dtoToJsonSchema(Order).schema, dto: Order, stripUnknown: true, generated: true });
    const args = { count: 'x', unknown_extra: 1 };
    expect(parse(args)).toMatchObject({ ok: false });
    expect(args).toEqual({ count: 'x', unknown_extra: 1 });
  });
});
