// The Worker cell's app (scripts/runtimes/workerd.js): the runtime matrix's two tools, `greet`
// with an input DTO that ajv validates, `count` with progress (an SSE answer). Compiled by tsc (for
// the decorators' metadata), then bundled with worker.mjs by esbuild into one Worker module.
import 'reflect-metadata';
import { IsInt, IsString, Max, Min, MinLength } from 'class-validator';
import { createApp, Tool, type McpApp, type PrecompiledValidators, type RequestContext } from '@mcpkit/core';

export class GreetInput {
  @IsString()
  @MinLength(1)
  name!: string;
}

export class CountInput {
  @IsInt()
  @Min(0)
  @Max(20)
  steps!: number;
}

export class WorkerTools {
  @Tool({ description: 'Greets someone by name' })
  greet(input: GreetInput): string {
    return `Hello, ${input.name}!`;
  }

  @Tool({ description: 'Counts to steps, reporting each step as progress' })
  async count(input: CountInput, ctx: RequestContext): Promise<string> {
    for (let step = 1; step <= input.steps; step++) {
      await Promise.resolve();
      ctx.progress(step, input.steps);
    }
    return `counted ${input.steps}`;
  }
}

export function createWorkerApp(validators?: PrecompiledValidators): McpApp {
  return createApp({ name: 'mcpkit-worker', version: '0.1.0', providers: [WorkerTools], validators });
}
