import { Prompt, Resource, Tool, type RequestContext } from '@mcpkit/core';
import { AddInput, EchoInput, GreetArgs, SlowInput, ValidateInput } from './dto';

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The fixed surface of ../shared/docs/testbed.md. */
export class TestbedTools {
  @Tool({ description: 'Returns the text it was given' })
  echo(input: EchoInput): string {
    return input.text;
  }

  @Tool({ description: 'Adds two numbers' })
  add(input: AddInput): string {
    return String(input.a + input.b);
  }

  @Tool({ description: 'Validates a ten-field object' })
  validate(input: ValidateInput): string {
    return `valid:${input.name}:${input.age}:${input.tags.length}:${input.address.zip}:${input.nickname ?? '-'}`;
  }

  @Tool({ description: 'Always fails' })
  fail(): never {
    throw new Error('the fail tool failed, as it always does');
  }

  @Tool({ description: 'Sleeps for ms milliseconds, or until cancelled' })
  async slow(input: SlowInput, ctx: RequestContext): Promise<string> {
    await sleep(input.ms, ctx.signal);
    return `slept ${input.ms}`;
  }

  @Resource({ uri: 'test://static', name: 'static', description: 'A fixed text resource', mimeType: 'text/plain' })
  staticResource(): string {
    return 'static resource content';
  }

  @Prompt({ description: 'Greets someone by name' })
  greet(args: GreetArgs): string {
    return `Please greet ${args.name} warmly.`;
  }
}
