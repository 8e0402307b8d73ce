import { createApp, Field, Prompt } from '@mcpkit/core';
import { IsIn, IsOptional, IsString } from 'class-validator';

class ReviewArgs {
  @Field({ description: 'The code to review' })
  @IsString()
  code: string;

  @Field({ description: 'How picky to be' })
  @IsOptional()
  @IsIn(['gentle', 'strict'])
  tone?: string;
}

export class ReviewPrompts {
  // A string is one user message.
  @Prompt({ name: 'review_code', title: 'Review code', description: 'Asks for a code review' })
  review(args: ReviewArgs): string {
    return `Review this code${args.tone ? ` in a ${args.tone} tone` : ''}:\n\n${args.code}`;
  }

  // An array gives the whole conversation.
  @Prompt({ description: 'A short role-play opening' })
  opening() {
    return [
      { role: 'user' as const, content: { type: 'text' as const, text: 'You are a reviewer.' } },
      { role: 'assistant' as const, content: { type: 'text' as const, text: 'Understood. Send me code.' } },
    ];
  }
}

export const reviewApp = createApp({ name: 'review', version: '1.0.0', providers: [ReviewPrompts] });
