import { createApp, Field, Tool } from '@mcpkit/core';
import { Type } from 'class-transformer';
import { Equals, IsDate, IsInt, IsOptional, IsPositive, IsString, IsUrl, ValidateNested } from 'class-validator';

export class Circle {
  @Equals('circle') kind: 'circle';
  @IsPositive() radius: number;
}

export class Square {
  @Equals('square') kind: 'square';
  @IsPositive() side: number;
}

class Category {
  @IsString() name: string;

  // A DTO that contains itself: published once under $defs, referenced with $ref.
  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => Category)
  children?: Category[];
}

class PlanInput {
  // format: "uri", and that is what is enforced: any absolute URI, data: included.
  @IsUrl() site: string;

  // A calendar date; any ajv-formats name works (email, uuid, date-time, time, ipv4 …).
  @IsOptional() @Field({ format: 'date' }) @IsString() day?: string;

  // Travels as a date-time string, reaches the handler as a Date.
  @IsOptional() @Type(() => Date) @IsDate() start?: Date;

  // Record<string, string>: every value must be a string.
  @IsOptional() @Field({ record: String }) labels?: Record<string, string>;

  // Required, and may be null.
  @Field({ nullable: true }) @IsString() owner: string | null;

  // One of two classes, chosen by `kind`; the handler gets a Circle or a Square.
  @IsOptional() @Field({ oneOf: [Circle, Square], discriminator: 'kind' }) shape?: Circle | Square;

  @IsOptional() @ValidateNested() @Type(() => Category) category?: Category;

  // One field with a raw schema; the rest stays declarative.
  @IsOptional() @Field({ schema: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false } }) point?: [number, number];

  // Published and applied when the client leaves it out.
  @IsOptional() @Field({ default: 3 }) @IsInt() retries?: number;
}

class Planner {
  @Tool({ description: 'Plans something of every shape' })
  plan(input: PlanInput) {
    const shape = input.shape instanceof Circle ? `circle r=${input.shape.radius}` : input.shape ? `square s=${input.shape.side}` : 'no shape';
    return `${input.owner ?? 'nobody'}: ${shape}, ${input.start?.getUTCFullYear() ?? '-'}, retries ${input.retries}`;
  }
}

export const plannerApp = createApp({ name: 'planner', version: '1.0.0', providers: [Planner] });
