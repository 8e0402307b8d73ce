import { createApp, MemoryTaskStore, Tool, ToolError, type RequestContext } from '@mcpkit/core';
import { IsInt, IsString, Max, Min } from 'class-validator';

class ReportInput {
  @IsString()
  region: string;

  @IsInt()
  @Min(1)
  @Max(12)
  months: number;
}

const NAME_FORM = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

export class Reports {
  // The client may run it as a task; the handler is the same either way.
  @Tool({ description: 'Builds a sales report, one month at a time', task: 'optional' })
  async report(input: ReportInput, ctx: RequestContext): Promise<string> {
    for (let month = 1; month <= input.months; month += 1) {
      // What tasks/get shows while it runs; a plain call has no ctx.task.
      await ctx.task?.update(`month ${month} of ${input.months}`);
      // tasks/cancel aborts the signal.
      await wait(10, ctx.signal);
    }
    if (input.region === 'nowhere') throw new ToolError('No sales in nowhere');
    return `Report for ${input.region}: ${input.months} months`;
  }

  // Always a task where the revision has them; the name is asked before the task starts.
  @Tool({ description: 'Signs a report off', task: 'required', input: null })
  async signOff(_input: unknown, ctx: RequestContext): Promise<string> {
    const who = await ctx.elicit('Who signs?', NAME_FORM, { key: 'signer', beforeTask: true });
    if (who.action !== 'accept') return 'Not signed';
    const sure = await ctx.elicit(`Sign as ${String(who.content.name)}?`, { type: 'object', properties: { ok: { type: 'boolean' } } }, { key: 'confirm' });
    return sure.action === 'accept' && sure.content.ok === true ? `Signed by ${String(who.content.name)}` : 'Not signed';
  }
}

export const reportsTaskApp = createApp({
  name: 'reports',
  version: '1.0.0',
  providers: [Reports],
  tasks: { store: new MemoryTaskStore({ maxTasks: 100, maxTasksPerOwner: 10 }), defaultTtlMs: 10 * 60_000, pollIntervalMs: 500 },
});
