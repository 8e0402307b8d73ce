import type { CallTarget, ExceptionFilter, Guard, Interceptor, Operation } from '../decorators/pipeline-types';
import type { HandlerContext } from '../dispatcher/handler-context';
import { ForbiddenError } from '../errors/access-errors';
import { McpError } from '../errors/mcp-error';
import { InputRequiredSignal } from '../model/input-required-signal';
import type { AccessRule } from './access-rule';
import { InvalidArgumentsSignal } from './invalid-arguments';

/**
 * One primitive's pipeline, compiled at start-up (architecture.md §8): its built-in access rule
 * and guards (app → class → method), interceptors (app → class → method, the reverse on the way
 * out) around validation and the handler, and exception filters (method → class → app).
 */
export interface Pipeline {
  /** Whether list visibility depends on the caller (the list is then `cacheScope: "private"`). */
  readonly varies: boolean;
  /** Whether the caller sees the item in a list; a guard that throws hides it (fail closed). */
  visible(ctx: HandlerContext): boolean | Promise<boolean>;
  /** The built-in rules alone (what lists memoise per visibility signature). */
  readonly access: AccessRule | undefined;
  /** Whether guards take part in list visibility (they see the whole context, so lists run them per request). */
  readonly guarded: boolean;
  /** The guards' part of `visible`. */
  guardsVisible(ctx: HandlerContext): Promise<boolean>;
  /** Resolves `hidden` (answer as for an unknown name) or undefined; rejects with the denial. */
  authorize(ctx: HandlerContext, operation: Operation): Promise<'hidden' | undefined>;
  /** Runs `core` (validation and the handler) inside the interceptors and filters. */
  run(ctx: HandlerContext, operation: Operation, core: () => Promise<unknown>): Promise<unknown>;
}

/** The parts of one pipeline, each list in the order it runs. */
export interface PipelineParts {
  readonly access: AccessRule | undefined;
  readonly guards: readonly Guard[];
  readonly interceptors: readonly Interceptor[];
  readonly filters: readonly ExceptionFilter[];
  readonly targets: Readonly<Record<Operation, CallTarget>>;
}

// Signals of the dispatcher (a question for the client, invalid arguments) are not errors of the handler.
const isSignal = (error: unknown): boolean => InputRequiredSignal.is(error) || error instanceof InvalidArgumentsSignal;

async function guardVerdict(guard: Guard, ctx: HandlerContext, target: CallTarget): Promise<boolean | 'hide'> {
  let verdict = guard.canActivate(ctx, target);
  if (verdict instanceof Promise) verdict = await verdict;
  return verdict === true || verdict === 'hide' ? verdict : false;
}

/** Compiles the parts into the pipeline the dispatcher runs. */
export function compilePipeline(parts: PipelineParts): Pipeline {
  const { access, guards, interceptors, filters, targets } = parts;
  const guardName = (guard: Guard): string => (guard.constructor as { name?: string }).name ?? 'guard';
  const interceptorName = (interceptor: Interceptor): string => {
    const name = (interceptor.constructor as { name?: string } | undefined)?.name;
    return name && name !== 'Object' ? name : 'interceptor';
  };

  async function guardsVisible(ctx: HandlerContext): Promise<boolean> {
    for (const guard of guards) {
      try {
        if ((await guardVerdict(guard, ctx, targets.list)) !== true) return false;
      } catch (error) {
        if (!McpError.isMcpError(error)) ctx.logger.error({ err: error, guard: guardName(guard), target: targets.list.name }, 'guard threw; item hidden');
        return false;
      }
    }
    return true;
  }

  const intercept = (ctx: HandlerContext, target: CallTarget, core: () => Promise<unknown>): Promise<unknown> => {
    const step = async (index: number): Promise<unknown> => {
      if (index === interceptors.length) return core();
      const interceptor = interceptors[index];
      let called = false;
      // Like Hono's compose: a second next() would run the handler (and its side effects) again.
      const next = (): Promise<unknown> => {
        if (called) return Promise.reject(new Error(`next() called multiple times by the interceptor ${interceptorName(interceptor)}`));
        called = true;
        return step(index + 1);
      };
      return interceptor.intercept(ctx, next, target);
    };
    return step(0);
  };

  return Object.freeze({
    varies: (access?.varies ?? false) || guards.length > 0,
    access,
    guarded: guards.length > 0,
    guardsVisible,
    visible(ctx: HandlerContext) {
      if (access !== undefined && !access.visible(ctx.auth)) return false;
      return guards.length === 0 ? true : guardsVisible(ctx);
    },
    async authorize(ctx: HandlerContext, operation: Operation) {
      const verdict = access?.check(ctx.auth);
      if (verdict === 'hidden') return 'hidden';
      if (verdict !== undefined) throw verdict;
      const target = targets[operation];
      for (const guard of guards) {
        let allowed: boolean | 'hide';
        try {
          allowed = await guardVerdict(guard, ctx, target);
        } catch (error) {
          if (McpError.isMcpError(error)) throw error;
          // Fail closed, logged here once; the denial itself is deliberate and not logged again.
          ctx.logger.error({ err: error, guard: guardName(guard), target: target.name }, 'guard threw; access denied');
          throw new ForbiddenError();
        }
        if (allowed === 'hide') return 'hidden';
        if (!allowed) throw new ForbiddenError();
      }
      if (access !== undefined || guards.length > 0) ctx.authorized = true;
      return undefined;
    },
    async run(ctx: HandlerContext, operation: Operation, core: () => Promise<unknown>) {
      const target = targets[operation];
      try {
        return await (interceptors.length === 0 ? core() : intercept(ctx, target, core));
      } catch (error) {
        if (filters.length === 0 || isSignal(error)) throw error;
        let current = error;
        for (const filter of filters) {
          try {
            return await filter.catch(current, ctx, target);
          } catch (next) {
            current = next;
          }
        }
        throw current;
      }
    },
  });
}
