import { InternalError, Tool, ToolError, type RequestContext } from '@mcpkit/core';
import { IsNumber, IsOptional, IsString, Min } from 'class-validator';

const NAME_FORM = { type: 'object', properties: { name: { type: 'string', description: 'Your name' } }, required: ['name'] };
const CONFIRM_FORM = { type: 'object', properties: { confirm: { type: 'boolean', description: 'Really?' } }, required: ['confirm'] };
const PARTIAL_FORM = { type: 'object', properties: { name: { type: 'string' }, confirm: { type: 'boolean' } } };

/** Sleeps `ms`, or until `signal` aborts (then rejects with its reason: a cancelled task stays cancelled). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

class GreetInput {
  @IsString()
  name: string;
}

class SlowInput {
  @IsNumber()
  @Min(0)
  seconds: number;

  @IsOptional()
  @IsString()
  label?: string;
}

class DeleteInput {
  @IsString()
  filename: string;
}

/** The tasks extension scenarios' fixtures (SEP-2663), served on both eras. */
export class TaskTools {
  @Tool({ description: 'Greets synchronously (never a task)' })
  greet(input: GreetInput): string {
    return `Hello, ${input.name}!`;
  }

  @Tool({ name: 'slow_compute', description: 'Sleeps for `seconds`, then answers; runs as a task when the client can', task: 'optional' })
  async slowCompute(input: SlowInput, ctx: RequestContext): Promise<string> {
    await ctx.task?.update(`computing ${input.label ?? ''}`.trim());
    await sleep(input.seconds * 1000, ctx.signal);
    return `Computed ${input.label ?? 'result'} after ${input.seconds}s`;
  }

  @Tool({ name: 'failing_job', description: 'Reports a tool error after about a second', task: 'required', input: null })
  async failingJob(_input: unknown, ctx: RequestContext): Promise<string> {
    await sleep(1000, ctx.signal);
    throw new ToolError('The job failed: nothing to process');
  }

  @Tool({ name: 'protocol_error_job', description: 'Fails with a protocol error (the task fails)', task: 'optional', input: null })
  async protocolErrorJob(_input: unknown, ctx: RequestContext): Promise<string> {
    await sleep(100, ctx.signal);
    throw new InternalError('The job crashed');
  }

  @Tool({ name: 'confirm_delete', description: 'Asks for confirmation inside its task, then deletes', task: 'optional' })
  async confirmDelete(input: DeleteInput, ctx: RequestContext): Promise<string> {
    const answer = await ctx.elicit(`Delete ${input.filename}?`, CONFIRM_FORM, { key: 'confirm' });
    return answer.action === 'accept' && answer.content.confirm === true ? `Deleted ${input.filename}` : `Kept ${input.filename}`;
  }

  @Tool({ name: 'multi_input', description: 'Asks two questions at once inside its task', task: 'optional', input: null })
  async multiInput(_input: unknown, ctx: RequestContext): Promise<string> {
    const [first, second] = await Promise.all([
      ctx.elicit('First question', PARTIAL_FORM, { key: 'first' }),
      ctx.elicit('Second question', PARTIAL_FORM, { key: 'second' }),
    ]);
    return `Answers: ${first.action}, ${second.action}`;
  }

  @Tool({ name: 'test_tool_with_task', description: 'Asks for a name before its task, then greets from the task', task: 'required', input: null })
  async toolWithTask(_input: unknown, ctx: RequestContext): Promise<string> {
    const answer = await ctx.elicit('What is your name?', NAME_FORM, { key: 'user_name', beforeTask: true });
    await sleep(200, ctx.signal);
    return answer.action === 'accept' ? `Hello from the task, ${String(answer.content.name)}!` : `No name (${answer.action})`;
  }
}
