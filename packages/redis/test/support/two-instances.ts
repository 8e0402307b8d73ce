import { IsInt, IsString, Max, Min } from 'class-validator';
import pino from 'pino';
import { createApp, Resource, Tool, type McpApp, type RequestContext } from '@mcpkit/core';
import { serveHttp, type HttpServer } from '@mcpkit/fastify';
import { redisScaleOut, type RedisScaleOut, type RedisScaleOutOptions } from '@mcpkit/redis';

class AskInput {
  @IsString()
  question: string;
}

class WaitInput {
  @IsString()
  tag: string;
}

class StepsInput {
  @IsInt()
  @Min(1)
  @Max(50)
  steps: number;

  @IsInt()
  @Min(0)
  @Max(1_000)
  delayMs: number;
}

/** What the tools of one instance saw (tests look at it). */
export interface InstanceLog {
  cancelled: string[];
}

function toolsOf(name: string, log: InstanceLog) {
  class ScaleOutTools {
    @Tool({ description: 'Says which instance served it' })
    where() {
      return name;
    }

    @Tool({ description: 'Asks the client (elicitation) and returns its answer, with the instance that asked' })
    async ask(input: AskInput, ctx: RequestContext) {
      const answer = await ctx.elicit(input.question, { type: 'object', properties: { reply: { type: 'string' } } });
      return `${name}:${answer.action}:${JSON.stringify(answer.action === 'accept' ? answer.content : null)}`;
    }

    @Tool({ description: 'Logs one line to the client at info and one at debug (ctx.log)', input: null })
    speak(_input: unknown, ctx: RequestContext) {
      ctx.log.info(`info from ${name}`);
      ctx.log.debug(`debug from ${name}`);
      return 'spoke';
    }

    @Tool({ description: 'Reports progress `steps` times, `delayMs` apart, then answers with the instance that ran it' })
    async steps(input: StepsInput, ctx: RequestContext) {
      for (let step = 1; step <= input.steps; step += 1) {
        await new Promise((resolve) => setTimeout(resolve, input.delayMs));
        ctx.progress(step, input.steps);
      }
      return `${name}:${input.steps}`;
    }

    @Tool({ description: 'Waits until cancelled (at most 10 s); reports progress 0 first' })
    async wait(input: WaitInput, ctx: RequestContext) {
      // Opens the POST's SSE stream when the client gave a progress token: something to resume.
      ctx.progress(0, 1);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 10_000);
        ctx.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
      if (ctx.signal.aborted) log.cancelled.push(input.tag);
      return ctx.signal.aborted ? 'cancelled' : 'waited';
    }

    @Resource({ uri: 'notes://1', name: 'note-1', description: 'A note' })
    note1() {
      return 'one';
    }

    @Resource({ uri: 'notes://2', name: 'note-2', description: 'Another note' })
    note2() {
      return 'two';
    }
  }
  return ScaleOutTools;
}

/** One instance: an app on its own Redis scale-out, served over HTTP on a loopback port. */
export interface Instance {
  readonly name: string;
  readonly app: McpApp;
  readonly scaleOut: RedisScaleOut;
  readonly server: HttpServer;
  readonly url: string;
  readonly log: InstanceLog;
  /**
   * What the instance logged (its app, its HTTP server and its scale-out) at `LOG_LEVEL` (jest's
   * default: warn), parsed and never printed: a test asserts and takes out the lines it expects
   * (`takeLogged`), and whatever else is left at warn or above fails it (`unexpectedLines`).
   */
  readonly lines: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Starts one instance named `name` (its instance id) on Redis at `url` with `prefix`. */
export async function startInstance(
  name: string,
  redis: Omit<RedisScaleOutOptions, 'instanceId'>,
  http: { maxSessions?: number; streamKeepAliveMs?: number } = {},
): Promise<Instance> {
  const log: InstanceLog = { cancelled: [] };
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const scaleOut = redisScaleOut({ logger, ...redis, instanceId: name });
  const app = createApp({
    name: 'scale-out',
    version: '1.0.0',
    providers: [toolsOf(name, log)],
    dynamic: true,
    subscriptions: true,
    clientLogging: true,
    logger,
    requestStateSecret: 'scale-out-test-secret-shared-by-every-instance',
    bus: scaleOut.bus,
  });
  await scaleOut.ready();
  const server = await serveHttp(app, { port: 0, ...scaleOut.http, streamKeepAliveMs: 0, ...http });
  return {
    name,
    app,
    scaleOut,
    server,
    url: server.url,
    log,
    lines,
    close: async () => {
      await server.close();
      await scaleOut.close();
    },
  };
}

/**
 * Takes the lines `instance` logged with the message `msg` out of its log, for the test that
 * expects them to assert.
 *
 * @example
 * expect(takeLogged(a, 'event store failed: an event of this stream cannot be resumed')).not.toEqual([]);
 */
export function takeLogged(instance: Instance, msg: string): Array<Record<string, unknown>> {
  const taken = instance.lines.filter((line) => line.msg === msg);
  const kept = instance.lines.filter((line) => line.msg !== msg);
  instance.lines.splice(0, instance.lines.length, ...kept);
  return taken;
}

/**
 * The lines at warn or above left in the instances' logs, but for the messages in `expected`
 * (what a test that breaks Redis on purpose is bound to log, as often as reconnects happen to
 * run): a test expects none.
 *
 * @example
 * expect(unexpectedLines([a, b], ['Redis connection error'])).toEqual([]);
 */
export function unexpectedLines(instances: ReadonlyArray<Instance | undefined>, expected: readonly string[] = []): Array<Record<string, unknown>> {
  return instances.flatMap((instance) => instance?.lines ?? []).filter((line) => (line.level as number) >= 40 && !expected.includes(line.msg as string));
}
