import { Tool } from '@mcpkit/core';
import { SyntheticInput } from './dto';

/**
 * A provider with `count` tools `tool_0 … tool_{count-1}` for `tools/list` benchmarks, declared
 * with the same `@Tool` decorator, applied as a function because the count is only known at run time.
 */
export function syntheticTools(count: number): object {
  class SyntheticTools {}
  const prototype = SyntheticTools.prototype as unknown as Record<string, unknown>;
  for (let i = 0; i < count; i++) {
    const name = `tool_${i}`;
    const handler = (input: SyntheticInput): string => `${name}:${input.x}`;
    prototype[name] = handler;
    const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
    Tool({ name, description: `Synthetic tool number ${i} for tools/list benchmarks`, input: SyntheticInput })(prototype, name, descriptor);
  }
  return new SyntheticTools();
}
