import { Complete, createApp, Prompt, ResourceTemplate } from '@mcpkit/core';
import { IsOptional, IsString } from 'class-validator';

const LANGUAGES = ['go', 'python', 'rust', 'typescript'];

class ReviewArgs {
  @IsString()
  language: string;

  @IsOptional()
  @IsString()
  framework?: string;
}

export class CodeReview {
  @Prompt({ description: 'Reviews code in one language' })
  review(args: ReviewArgs): string {
    return `Review this ${args.language}${args.framework ? `/${args.framework}` : ''} code.`;
  }

  @Complete({ prompt: 'review', argument: 'language' })
  languages(value: string): string[] {
    return LANGUAGES.filter((language) => language.startsWith(value));
  }

  // The arguments the user already filled in arrive as context (2025-06-18).
  @Complete({ prompt: 'review', argument: 'framework' })
  frameworks(value: string, context: { arguments: Record<string, string> }): string[] {
    const byLanguage: Record<string, string[]> = { python: ['django', 'flask'], typescript: ['fastify', 'nest'] };
    return (byLanguage[context.arguments.language] ?? []).filter((name) => name.startsWith(value));
  }

  @ResourceTemplate({ uriTemplate: 'styleguide://{language}', mimeType: 'text/markdown' })
  styleguide({ language }: { language: string }): string | undefined {
    return LANGUAGES.includes(language) ? `# ${language} style` : undefined;
  }

  @Complete({ resourceTemplate: 'styleguide://{language}', variable: 'language' })
  styleguides(value: string): string[] {
    return LANGUAGES.filter((language) => language.startsWith(value));
  }
}

export const reviewApp = createApp({ name: 'code-review', version: '1.0.0', providers: [CodeReview] });
