import { createApp, Tool } from '@mcpkit/core';
import { IsString, MinLength } from 'class-validator';

export class GreetInput {
  @IsString()
  @MinLength(1)
  name: string;
}

class Greeter {
  // Named, not read from the parameter's type: tsx, esbuild and vitest emit no design types.
  @Tool({ description: 'Says hello', input: GreetInput })
  greet(input: GreetInput) {
    return `Hello, ${input.name}!`;
  }
}

export const app = createApp({ name: 'greeter', version: '1.0.0', providers: [Greeter] });
