import { createApp, Field, Tool } from '@mcpkit/core';
import { IsString, MaxLength } from 'class-validator';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

class LookupInput {
  @Field({ description: 'The word to look up' })
  @IsString()
  @MaxLength(64)
  word: string;
}

class Dictionary {
  @Tool({ description: 'Looks the word up in the dictionary and returns its meanings', annotations: { readOnlyHint: true } })
  define(input: LookupInput): string {
    return `${input.word}: no entry`;
  }
}

// Counted exactly (o200k_base) once at start-up; over 2000 tokens createApp throws MCPKIT_ERR_TOKEN_BUDGET.
export const dictionaryApp = createApp({
  name: 'dictionary',
  version: '1.0.0',
  providers: [Dictionary],
  tokenBudget: { limit: 2000, strict: true, count: countTokens },
});
