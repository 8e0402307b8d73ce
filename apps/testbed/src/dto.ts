import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';

export class EchoInput {
  @IsString()
  text: string;
}

export class AddInput {
  @IsNumber()
  a: number;

  @IsNumber()
  b: number;
}

export class AddressInput {
  @IsString()
  @MinLength(1)
  street: string;

  @IsString()
  @MinLength(1)
  city: string;

  @IsString()
  @Matches(/^[0-9]{5}$/)
  zip: string;
}

export class ValidateInput {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  name: string;

  @IsEmail()
  email: string;

  @IsInt()
  @Min(0)
  @Max(150)
  age: number;

  @IsNumber()
  @Min(0)
  @Max(100)
  score: number;

  @IsIn(['admin', 'editor', 'viewer'])
  role: 'admin' | 'editor' | 'viewer';

  @IsBoolean()
  active: boolean;

  @IsArray()
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @ArrayMaxSize(20)
  tags: string[];

  @ValidateNested()
  @Type(() => AddressInput)
  address: AddressInput;

  @IsOptional()
  @IsString()
  @MaxLength(32)
  nickname?: string;

  @IsInt()
  @Min(1)
  @Max(5)
  priority: number;
}

export class SlowInput {
  @IsInt()
  @Min(0)
  ms: number;
}

export class GreetArgs {
  @IsString()
  name: string;
}

export class SyntheticInput {
  @IsNumber()
  x: number;

  @IsOptional()
  @IsString()
  label?: string;
}
