import { createApp, createLogger, Tool, type RequestContext } from '@mcpkit/core';
import { IsInt, Min } from 'class-validator';

class WaitInput {
  @IsInt()
  @Min(0)
  ms: number;
}

// Providers may take constructor arguments; `resolve` makes them (plug in any DI container).
export class Clock {
  constructor(private readonly now: () => Date) {}

  @Tool({ description: 'The current time' })
  time(): string {
    return this.now().toISOString();
  }

  @Tool({ description: 'Waits, unless the client cancels' })
  async wait(input: WaitInput, ctx: RequestContext): Promise<string> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, input.ms);
      ctx.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
    ctx.logger.info({ ms: input.ms, cancelled: ctx.signal.aborted }, 'waited');
    return ctx.signal.aborted ? 'cancelled' : `waited ${input.ms} ms for ${ctx.client.info?.name ?? 'a client'}`;
  }
}

export const clockApp = createApp({
  name: 'clock',
  version: '1.0.0',
  instructions: 'Ask for the time.',
  providers: [Clock],
  resolve: (type) => (type === Clock ? new Clock(() => new Date('2026-01-01T00:00:00Z')) : new type()),
  logger: createLogger({ level: 'warn' }),
});
