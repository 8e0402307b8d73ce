import { createApp, Tool, Field } from '@mcpkit/core';
import { IsString, MinLength } from 'class-validator';

class GreetInput {
  @Field({ description: 'Who to greet' })
  @IsString()
  @MinLength(1)
  name: string;
}

class Greeter {
  @Tool({ description: 'Says hello', annotations: { readOnlyHint: true } })
  greet(input: GreetInput) {
    return `Hello, ${input.name}!`;
  }
}

// Side-effect free: `mcpkit start` serves it, `mcpkit inspect` and `mcpkit call` load it, tests import it.
export const app = createApp({ name: 'greeter', version: '1.0.0', providers: [Greeter] });
