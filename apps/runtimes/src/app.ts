import { createApp, Tool, type RequestContext } from '@mcpkit/core';
import { IsInt, IsString, Max, Min, MinLength } from 'class-validator';

export class GreetInput {
  @IsString()
  @MinLength(1)
  name: string;
}

export class CountInput {
  @IsInt()
  @Min(1)
  @Max(10)
  steps: number;
}

/** The two tools every cell of the matrix is checked with (scripts/runtimes/check-http.js). */
export class RuntimeTools {
  @Tool({ description: 'Says hello to someone by name' })
  greet(input: GreetInput): string {
    return `Hello, ${input.name}!`;
  }

  @Tool({ description: 'Reports progress `steps` times, then answers' })
  async count(input: CountInput, ctx: RequestContext): Promise<string> {
    for (let step = 1; step <= input.steps; step += 1) {
      ctx.progress(step, input.steps);
      // A turn of the event loop between notifications, as real work has.
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    return `counted ${input.steps}`;
  }
}

/** A new app each call: a server process serves one. */
export function createRuntimeApp() {
  return createApp({ name: 'runtimes', version: '1.0.0', providers: [RuntimeTools] });
}
