import { plainToInstance, Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  validateSync,
  ValidateNested,
} from 'class-validator';
import { dtoToJsonSchema } from '../schema/dto-to-json-schema';
import { ValidatorFactory } from './validator-factory';

enum Role {
  Admin = 'admin',
  Viewer = 'viewer',
}

class Address {
  @IsString()
  @MinLength(1)
  city: string;

  @IsString()
  @Matches(/^[0-9]{5}$/)
  zip: string;
}

class Profile {
  @IsString()
  @Length(1, 8)
  name: string;

  @IsEmail()
  email: string;

  @IsInt()
  @Min(0)
  @Max(150)
  age: number;

  @IsNumber()
  @IsPositive()
  score: number;

  @IsEnum(Role)
  role: Role;

  @IsIn([1, 2, 3])
  tier: number;

  @IsBoolean()
  active: boolean;

  @IsArray()
  @IsString({ each: true })
  @MaxLength(4, { each: true })
  @ArrayMinSize(1)
  @ArrayMaxSize(3)
  tags: string[];

  @ValidateNested()
  @Type(() => Address)
  address: Address;

  @IsOptional()
  @IsUUID()
  ref?: string;
}

const valid = {
  name: 'Ada',
  email: 'ada@example.com',
  age: 36,
  score: 0.5,
  role: 'admin',
  tier: 2,
  active: true,
  tags: ['a', 'bcd'],
  address: { city: 'Paris', zip: '75001' },
};

const validSamples: Array<[string, Record<string, unknown>]> = [
  ['the base sample', valid],
  ['an optional field set', { ...valid, ref: '0b6f2c4e-1f6e-4e57-9d2a-2f9c6f1b7a10' }],
  ['boundary values', { ...valid, name: 'abcdefgh', age: 0, tags: ['abcd', 'x', 'y'] }],
  ['an integer written as 3.0', { ...valid, age: 3.0 }],
  ['an upper-case UUID', { ...valid, ref: '0B6F2C4E-1F6E-4E57-9D2A-2F9C6F1B7A10' }],
];

const invalidSamples: Array<[string, Record<string, unknown>]> = [
  ['a missing required field', (({ email: _email, ...rest }) => rest)(valid)],
  ['an empty name', { ...valid, name: '' }],
  ['a long name', { ...valid, name: 'abcdefghi' }],
  ['a bad email', { ...valid, email: 'not-an-email' }],
  ['age above max', { ...valid, age: 151 }],
  ['a fractional age', { ...valid, age: 3.5 }],
  ['age as a string', { ...valid, age: '30' }],
  ['a zero score', { ...valid, score: 0 }],
  ['an unknown role', { ...valid, role: 'root' }],
  ['a tier outside the set', { ...valid, tier: 4 }],
  ['active as a string', { ...valid, active: 'true' }],
  ['no tags', { ...valid, tags: [] }],
  ['too many tags', { ...valid, tags: ['a', 'b', 'c', 'd'] }],
  ['a long tag', { ...valid, tags: ['abcde'] }],
  ['a non-string tag', { ...valid, tags: [1] }],
  ['tags not an array', { ...valid, tags: 'a' }],
  ['a bad zip', { ...valid, address: { city: 'Paris', zip: 'abcde' } }],
  ['an address without city', { ...valid, address: { zip: '75001' } }],
  ['a bad UUID', { ...valid, ref: 'not-a-uuid' }],
  ['a urn-prefixed UUID', { ...valid, ref: 'urn:uuid:0b6f2c4e-1f6e-4e57-9d2a-2f9c6f1b7a10' }],
];

describe('class-validator and the compiled schema agree', () => {
  const { schema } = dtoToJsonSchema(Profile);
  const check = new ValidatorFactory().compile(schema);
  const classValidatorAccepts = (sample: Record<string, unknown>) =>
    validateSync(plainToInstance(Profile, sample), { forbidUnknownValues: false }).length === 0;

  it.each(validSamples)('both accept %s', (_, sample) => {
    expect(classValidatorAccepts(sample)).toBe(true);
    expect(check(structuredClone(sample))).toBe(true);
  });

  it.each(invalidSamples)('both reject %s', (_, sample) => {
    expect(classValidatorAccepts(sample)).toBe(false);
    expect(check(structuredClone(sample))).toBe(false);
  });

  it('differs on null for an optional field by design: optional means absent', () => {
    const sample = { ...valid, ref: null };
    expect(classValidatorAccepts(sample)).toBe(true);
    expect(check(structuredClone(sample))).toBe(false);
  });
});

describe('ValidatorFactory.inputParser', () => {
  const factory = new ValidatorFactory();

  it('drops unknown properties at every level when not strict, and hands the handler a DTO instance', () => {
    const parse = factory.inputParser({ schema: dtoToJsonSchema(Profile).schema, dto: Profile, stripUnknown: true });
    const outcome = parse({ ...structuredClone(valid), extra: 1, address: { ...valid.address, extra: 2 } });
    expect(outcome).toEqual({ ok: true, value: expect.any(Profile) });
    const value = (outcome as { value: Profile }).value;
    expect(value).not.toHaveProperty('extra');
    expect(value.address).toBeInstanceOf(Address);
    expect(value.address).not.toHaveProperty('extra');
  });

  it('rejects unknown properties when strict', () => {
    const parse = factory.inputParser({ schema: dtoToJsonSchema(Profile, { strict: true }).schema, dto: Profile });
    expect(parse({ ...structuredClone(valid), extra: 1 })).toEqual({ ok: false, problems: ['extra: is not an allowed property'] });
  });

  it('names each bad field', () => {
    const parse = factory.inputParser({ schema: dtoToJsonSchema(Profile).schema, dto: Profile, stripUnknown: true });
    const outcome = parse({ ...structuredClone(valid), age: 200, email: 'x', address: { city: '', zip: '1' }, tags: ['ok', 'toolong'] });
    expect((outcome as { ok: boolean }).ok).toBe(false);
    expect((outcome as { problems: string[] }).problems.sort()).toEqual([
      'address.city: must NOT have fewer than 1 characters',
      'address.zip: must match pattern "^[0-9]{5}$"',
      'age: must be <= 150',
      'email: must be a valid email',
      'tags[1]: must NOT have more than 4 characters',
    ]);
  });
});

describe('the fast DTO instantiation', () => {
  class WithDefaults {
    @IsString()
    name: string;

    @IsOptional()
    @IsInt()
    limit: number = 10;

    @IsOptional()
    @ValidateNested({ each: true })
    @Type(() => Address)
    addresses?: Address[];
  }

  class Transformed {
    @Transform(({ value }) => String(value).toUpperCase())
    @IsString()
    code: string;
  }

  it.each([
    ['a nested DTO', Profile, { ...valid }],
    ['defaults and arrays of DTOs', WithDefaults, { name: 'x', addresses: [{ city: 'a', zip: '12345' }] }],
    ['defaults left to the class', WithDefaults, { name: 'x' }],
  ])('builds the same instance as plainToInstance for %s', (_, dto, plain) => {
    const fast = dtoToJsonSchema(dto).instantiate!(structuredClone(plain) as Record<string, unknown>);
    const reference = plainToInstance(dto as new () => object, structuredClone(plain), { exposeDefaultValues: true });
    expect(fast).toBeInstanceOf(dto);
    expect(fast).toEqual(reference);
    expect(JSON.stringify(fast)).toBe(JSON.stringify(reference));
  });

  it('leaves DTOs with other class-transformer features to plainToInstance', () => {
    expect(dtoToJsonSchema(Transformed).instantiate).toBeUndefined();
    const parse = new ValidatorFactory().inputParser({ schema: dtoToJsonSchema(Transformed).schema, dto: Transformed });
    expect(parse({ code: 'abc' })).toEqual({ ok: true, value: expect.objectContaining({ code: 'ABC' }) });
  });
});
