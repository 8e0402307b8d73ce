import { createApp, Field, Tool } from '@mcpkit/core';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsEmail, IsIn, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';

class Address {
  @IsString()
  street: string;

  @Matches(/^[0-9]{5}$/)
  zip: string;
}

export class SignupInput {
  @Field({ description: 'Where we send the confirmation' })
  @IsEmail()
  email: string;

  @IsIn(['free', 'pro'])
  plan: 'free' | 'pro';

  @IsOptional()
  @IsString({ each: true })
  @ArrayMaxSize(5)
  interests?: string[];

  @ValidateNested()
  @Type(() => Address)
  address: Address;

  // Optional means "may be absent"; `nullable` also lets the client send null.
  @Field({ nullable: true })
  @IsOptional()
  @MaxLength(200)
  comment?: string | null;
}

export class Accounts {
  // Unknown arguments are dropped before the handler runs.
  @Tool({ description: 'Signs a user up' })
  signup(input: SignupInput) {
    return `Welcome ${input.email} (${input.plan}, zip ${input.address.zip})`;
  }

  // strict: unknown arguments are an error, and the schema says additionalProperties: false.
  @Tool({ description: 'Same, but strict', strict: true })
  signupStrict(input: SignupInput) {
    return `Welcome ${input.email}`;
  }

  // A raw JSON Schema for what DTOs can't say.
  @Tool({
    description: 'Looks a user up by email or by id',
    inputSchema: {
      type: 'object',
      oneOf: [
        { properties: { email: { type: 'string', format: 'email' } }, required: ['email'] },
        { properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] },
      ],
    },
  })
  lookup(input: { email?: string; id?: number }) {
    return input.email ?? `#${input.id}`;
  }
}

export const accountsApp = createApp({ name: 'accounts', version: '1.0.0', providers: [Accounts] });
