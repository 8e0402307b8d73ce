import { Complete, Field, Prompt } from '@mcpkit/core';
import { IsString } from 'class-validator';
import { PNG_BASE64 } from './fixtures';

class TwoArguments {
  @Field({ description: 'First test argument' })
  @IsString()
  arg1: string;

  @Field({ description: 'Second test argument' })
  @IsString()
  arg2: string;
}

class ResourceArgument {
  @Field({ description: 'URI of the resource to embed' })
  @IsString()
  resourceUri: string;
}

/** The conformance prompts. */
export class ConformancePrompts {
  @Prompt({ name: 'test_simple_prompt', title: 'Simple Test Prompt', description: 'A simple prompt without arguments' })
  simple(): string {
    return 'This is a simple prompt for testing.';
  }

  @Prompt({ name: 'test_prompt_with_arguments', title: 'Prompt With Arguments', description: 'A prompt with required arguments' })
  withArguments(args: TwoArguments): string {
    return `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`;
  }

  @Complete({ prompt: 'test_prompt_with_arguments', argument: 'arg1' })
  completeArg1(value: string): string[] {
    return ['paris', 'park', 'party', 'pasta'].filter((word) => word.startsWith(value));
  }

  @Prompt({ name: 'test_prompt_with_embedded_resource', title: 'Prompt With Embedded Resource', description: 'A prompt that includes an embedded resource' })
  withResource(args: ResourceArgument) {
    return [
      {
        role: 'user' as const,
        content: { type: 'resource' as const, resource: { uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } },
      },
      { role: 'user' as const, content: { type: 'text' as const, text: 'Please process the embedded resource above.' } },
    ];
  }

  @Prompt({ name: 'test_prompt_with_image', title: 'Prompt With Image', description: 'A prompt that includes image content' })
  withImage() {
    return [
      { role: 'user' as const, content: { type: 'image' as const, data: PNG_BASE64, mimeType: 'image/png' } },
      { role: 'user' as const, content: { type: 'text' as const, text: 'Please analyze the image above.' } },
    ];
  }
}
