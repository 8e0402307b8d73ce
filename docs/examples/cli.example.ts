import { createApp, Tool } from '@mcpkit/core';
import { IsNumber } from 'class-validator';

class Pair {
  @IsNumber()
  a: number;

  @IsNumber()
  b: number;
}

class Calculator {
  @Tool({ description: 'Adds two numbers' })
  add(input: Pair): string {
    return String(input.a + input.b);
  }
}

// A side-effect-free module that exports the app: what `mcpkit start | inspect | call | config` load.
export const app = createApp({ name: 'calculator', version: '1.0.0', providers: [Calculator] });
