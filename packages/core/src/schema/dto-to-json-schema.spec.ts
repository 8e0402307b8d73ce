import { Type } from 'class-transformer';
import {
  ArrayMinSize,
  ArrayUnique,
  Equals,
  IsArray,
  IsBoolean,
  IsDefined,
  IsEmail,
  IsEnum,
  IsInt,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
  Validate,
  type ValidatorConstraintInterface,
  ValidatorConstraint,
} from 'class-validator';
import { Field } from '../decorators/field.decorator';
import { ValidatorFactory } from '../validation/validator-factory';
import { dtoToJsonSchema } from './dto-to-json-schema';

enum Color {
  Red = 'red',
  Green = 'green',
}

enum Level {
  Low = 1,
  High = 2,
}

class TagInput {
  @IsString()
  label: string;
}

class PointInput {
  @IsNumber()
  x: number;

  @IsNumber()
  y: number;
}

class KitchenSinkInput {
  @Field({ description: 'Display name', title: 'Name', examples: ['Ada'] })
  @IsString()
  @Length(2, 40)
  name: string;

  @IsOptional()
  @IsEmail()
  email?: string;

  @IsInt()
  @Min(0)
  @Max(150)
  age: number;

  @IsPositive()
  weight: number;

  @IsEnum(Color)
  color: Color;

  @IsEnum(Level)
  level: Level;

  @IsBoolean()
  active: boolean;

  @IsUUID()
  id: string;

  @Matches(/^[A-Z]{3}$/)
  code: string;

  @IsArray()
  @IsString({ each: true })
  @ArrayMinSize(1)
  @ArrayUnique()
  aliases: string[];

  @ValidateNested({ each: true })
  @Type(() => TagInput)
  tags: TagInput[];

  @ValidateNested()
  @Type(() => PointInput)
  origin: PointInput;

  @Field({ nullable: true, description: 'May be null' })
  @IsOptional()
  @IsString()
  note?: string | null;

  @Equals('v1')
  version: string;

  @Field({ description: 'A plain described field', default: 3 })
  @IsOptional()
  @IsInt()
  retries: number = 3;
}

describe('dtoToJsonSchema', () => {
  it('publishes every supported constraint (snapshot)', () => {
    const { schema, needsClassValidator } = dtoToJsonSchema(KitchenSinkInput);
    expect(needsClassValidator).toBe(false);
    expect(schema).toMatchSnapshot();
  });

  it('keeps only real members of a numeric enum', () => {
    const { schema } = dtoToJsonSchema(KitchenSinkInput);
    expect((schema.properties as Record<string, unknown>).level).toEqual({ type: 'integer', enum: [1, 2] });
  });

  it('inlines nested DTOs and arrays of them', () => {
    const properties = dtoToJsonSchema(KitchenSinkInput).schema.properties as Record<string, Record<string, unknown>>;
    expect(properties.origin).toEqual({ type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] });
    expect(properties.tags).toEqual({ type: 'array', items: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] } });
  });

  it('publishes additionalProperties: false on every object when strict', () => {
    const { schema } = dtoToJsonSchema(KitchenSinkInput, { strict: true });
    expect(schema.additionalProperties).toBe(false);
    expect((schema.properties as Record<string, Record<string, unknown>>).origin.additionalProperties).toBe(false);
  });

  it('leaves optional fields out of required, and @IsDefined puts them back', () => {
    class Input {
      @IsOptional()
      @IsString()
      a?: string;

      @IsDefined()
      @IsOptional()
      @IsString()
      b: string;
    }
    expect(dtoToJsonSchema(Input).schema.required).toEqual(['b']);
  });

  it('marks DTOs with constraints JSON Schema cannot say', () => {
    @ValidatorConstraint({ name: 'even' })
    class Even implements ValidatorConstraintInterface {
      validate(value: unknown) {
        return typeof value === 'number' && value % 2 === 0;
      }
    }
    class Custom {
      @IsInt()
      @Validate(Even)
      n: number;
    }
    class Conditional {
      @ValidateIf((o: Conditional) => o.n !== undefined)
      @IsInt()
      n?: number;
    }
    class Flagged {
      @Matches(/abc/i)
      s: string;
    }
    expect(dtoToJsonSchema(Custom).needsClassValidator).toBe(true);
    expect(dtoToJsonSchema(Conditional)).toMatchObject({ schema: { type: 'object', properties: { n: { type: 'integer' } } }, needsClassValidator: true });
    expect(dtoToJsonSchema(Flagged).needsClassValidator).toBe(true);
  });

  it('leaves @ArrayUnique with a selector to class-validator, which then rejects items the selector finds equal', async () => {
    class Tag {
      @IsInt()
      id: number;

      @IsString()
      label: string;
    }
    class ById {
      @ArrayUnique((tag: Tag) => tag.id)
      @ValidateNested({ each: true })
      @Type(() => Tag)
      tags: Tag[];
    }
    class ByItself {
      @ArrayUnique((tag: Tag) => tag)
      @ValidateNested({ each: true })
      @Type(() => Tag)
      tags: Tag[];
    }
    const byId = dtoToJsonSchema(ById);
    expect(byId.schema.properties).toEqual({ tags: { type: 'array', items: expect.any(Object) } });
    expect(byId.needsClassValidator).toBe(true);
    const parse = new ValidatorFactory().inputParser({
      schema: byId.schema,
      dto: ById,
      needsClassValidator: true,
      generated: true,
      instantiate: byId.instantiate,
      schemaChecked: byId.schemaChecked,
    });
    const same = await parse({
      tags: [
        { id: 1, label: 'a' },
        { id: 1, label: 'b' },
      ],
    });
    expect(same).toMatchObject({ ok: false, problems: [expect.stringContaining('unique')] });
    expect(
      await parse({
        tags: [
          { id: 1, label: 'a' },
          { id: 2, label: 'a' },
        ],
      }),
    ).toMatchObject({ ok: true });
    // A selector that tells any two items apart compares as none does: published.
    expect(dtoToJsonSchema(ByItself).schema.properties).toMatchObject({ tags: { uniqueItems: true } });
  });

  it('includes inherited fields', () => {
    class Base {
      @IsString()
      id: string;
    }
    class Child extends Base {
      @IsInt()
      n: number;
    }
    expect(dtoToJsonSchema(Child).schema).toEqual({ type: 'object', properties: { n: { type: 'integer' }, id: { type: 'string' } }, required: ['n', 'id'] });
  });

  it('publishes a DTO that contains itself once under $defs, referenced with $ref', () => {
    class Tree {
      @IsInt()
      value: number;

      @IsOptional()
      @ValidateNested({ each: true })
      @Type(() => Tree)
      children?: Tree[];
    }
    class Holder {
      @ValidateNested()
      @Type(() => Tree)
      tree: Tree;
    }
    const node = {
      type: 'object',
      properties: { value: { type: 'integer' }, children: { type: 'array', items: { $ref: '#/$defs/Tree' } } },
      required: ['value'],
    };
    expect(dtoToJsonSchema(Holder).schema).toEqual({ type: 'object', properties: { tree: node }, required: ['tree'], $defs: { Tree: node } });
    const built = dtoToJsonSchema(Holder).instantiate!({ tree: { value: 1, children: [{ value: 2, children: [{ value: 3, extra: true }] }] } }) as Holder;
    expect(built.tree.children![0].children![0]).toBeInstanceOf(Tree);
    expect(built.tree.children![0].children![0]).toEqual({ value: 3 });
  });

  it('asks for @Type when a nested array has no element class', () => {
    class Holder {
      @ValidateNested({ each: true })
      items: TagInput[];
    }
    expect(() => dtoToJsonSchema(Holder)).toThrow(/@Type/);
  });
});

describe('the compiled instantiator', () => {
  it('takes only declared properties, at every level, and never changes the plain data', () => {
    class Outer {
      @ValidateNested({ each: true })
      @Type(() => TagInput)
      tags: TagInput[];

      @ValidateNested()
      @Type(() => PointInput)
      origin: PointInput;
    }
    const plain = { tags: [{ label: 'a', extra: 1 }], origin: { x: 1, y: 2, z: 3 }, unknown: true };
    const copy = JSON.parse(JSON.stringify(plain));
    const instance = dtoToJsonSchema(Outer).instantiate!(plain) as Outer;
    expect(instance).toBeInstanceOf(Outer);
    expect(instance.tags[0]).toBeInstanceOf(TagInput);
    expect(instance.origin).toBeInstanceOf(PointInput);
    expect(JSON.parse(JSON.stringify(instance))).toEqual({ tags: [{ label: 'a' }], origin: { x: 1, y: 2 } });
    expect(plain).toEqual(copy);
  });
});
