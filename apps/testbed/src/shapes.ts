import { Field, Tool } from '@mcpkit/core';
import { Type } from 'class-transformer';
import { Equals, IsDate, IsEmail, IsIn, IsInt, IsOptional, IsPositive, IsString, IsUrl, IsUUID, ValidateNested } from 'class-validator';

export class Circle {
  @Equals('circle')
  kind: 'circle';

  @IsPositive()
  radius: number;
}

export class Square {
  @Equals('square')
  kind: 'square';

  @IsPositive()
  side: number;
}

export class TreeNode {
  @IsInt()
  value: number;

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => TreeNode)
  children?: TreeNode[];

  @IsOptional()
  @Field({ nullable: true })
  @ValidateNested()
  @Type(() => TreeNode)
  next?: TreeNode | null;
}

/** Every input shape of issue #13, from decorators and `@Field` options alone. */
export class ShapesInput {
  @IsUrl()
  homepage: string;

  @IsOptional()
  @IsEmail()
  contact?: string;

  @IsOptional()
  @IsUUID()
  id?: string;

  @IsOptional()
  @Field({ format: 'date' })
  @IsString()
  day?: string;

  @IsOptional()
  @Type(() => Date)
  @IsDate()
  when?: Date;

  @IsOptional()
  @Field({ record: String })
  labels?: Record<string, string>;

  @Field({ nullable: true })
  @IsString()
  nickname: string | null;

  @IsOptional()
  @Field({ oneOf: [Circle, Square], discriminator: 'kind' })
  shape?: Circle | Square;

  @IsOptional()
  @ValidateNested()
  @Type(() => TreeNode)
  tree?: TreeNode;

  @IsOptional()
  @Field({ nullable: true, schema: { anyOf: [{ type: 'string', minLength: 1 }, { type: 'integer' }] } })
  code?: string | number | null;

  @IsOptional()
  @Field({ default: 'green' })
  @IsIn(['red', 'green', 'blue'])
  color?: 'red' | 'green' | 'blue';
}

function depth(node: TreeNode): number {
  return 1 + Math.max(0, ...[...(node.children ?? []), ...(node.next ? [node.next] : [])].map(depth));
}

export class ShapesTools {
  @Tool({ description: 'Takes every input shape: formats, a Date, a map, nullables, a union, a recursive tree, a raw schema, a default' })
  shapes(input: ShapesInput): string {
    const { when, color, shape, tree, nickname, code } = input;
    const shown = (value: unknown) => (value === null ? 'null' : value === undefined ? '-' : String(value));
    const next = tree?.next === null ? ':next=null' : tree?.next ? `:next=${tree.next.constructor.name}` : '';
    const raw = code === undefined ? '' : `:code=${shown(code)}`;
    return `shapes:${when ? when.toISOString() : '-'}:${color}:${shape ? `${shape.constructor.name}/${shape.kind}` : '-'}:${tree ? depth(tree) : 0}:${shown(nickname)}${next}${raw}`;
  }
}
