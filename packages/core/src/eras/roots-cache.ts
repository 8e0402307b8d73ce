import { ConnectionClosedError, RequestTimeoutError, SilentClientError } from '../errors/client-errors';
import { ToolError } from '../errors/tool-error';
import { isObject } from '../protocol/json-rpc';
import { METHOD } from '../protocol/methods';
import type { Root } from '../model/client-questions';

/** Asks the client for its roots (`roots/list`), waiting at most `timeoutMs` for the answer. */
export type FetchRoots = (timeoutMs: number) => Promise<Root[]>;

/** Whether a `roots/list` answer has the expected shape (a `roots` array). */
export const isRootsAnswer = (answer: Record<string, unknown>): boolean => Array.isArray(answer.roots);

/**
 * The roots of a `roots/list` answer: each entry with a string `uri`, others left out. An answer
 * without a `roots` array is refused (a `ToolError`), never read as "no roots": on a session that
 * answer would otherwise be kept as the client's roots until it says they changed.
 */
export function rootsOf(answer: Record<string, unknown>): Root[] {
  if (!Array.isArray(answer.roots)) throw new ToolError(`The client's ${METHOD.ROOTS_LIST} answer is malformed: it has no roots array`);
  return answer.roots.filter((root): root is Root => isObject(root) && typeof root.uri === 'string');
}

/**
 * The client's roots as one session knows them: asked once, kept until the client says they
 * changed (`notifications/roots/list_changed`, `invalidate`). Concurrent askers share one
 * `roots/list`. A client that lets it time out is silent: later calls fail at once
 * (`SilentClientError`) rather than wait again, until it shows life (`revive`, `invalidate`).
 */
export class RootsCache {
  private roots: readonly Root[] | undefined = undefined;
  private pending: Promise<readonly Root[]> | undefined = undefined;
  // Bumped by every change: an answer to a question asked before it is returned, never kept.
  private generation = 0;
  private silentAfterMs: number | undefined = undefined;

  /** `waitMs`: how long one `roots/list` may wait for its answer (`createApp({ rootsTimeoutMs })`). */
  constructor(private readonly waitMs: number) {}

  /** The roots: kept ones, or asked with `fetch` (a wait of `timeoutMs`, the cache's own by default). */
  async get(fetch: FetchRoots, timeoutMs: number = this.waitMs): Promise<Root[]> {
    if (this.roots !== undefined) return [...this.roots];
    if (this.silentAfterMs !== undefined) throw new SilentClientError(METHOD.ROOTS_LIST, this.silentAfterMs);
    const joined = this.pending !== undefined;
    this.pending ??= this.ask(fetch, timeoutMs);
    try {
      return [...(await this.pending)];
    } catch (error) {
      // The request that asked for everyone was cancelled (or its stream closed): that is not this
      // caller's end, so it asks once for itself.
      if (joined && error instanceof ConnectionClosedError) return this.get(fetch, timeoutMs);
      throw error;
    }
  }

  /** The client's roots changed: forget them (and any silence: the client spoke). */
  invalidate(): void {
    this.generation += 1;
    this.roots = undefined;
    this.pending = undefined;
    this.silentAfterMs = undefined;
  }

  /** The client answered something: it may be asked again. */
  revive(): void {
    this.silentAfterMs = undefined;
  }

  /** Whether the roots are kept (tests and diagnostics). */
  get cached(): boolean {
    return this.roots !== undefined;
  }

  private async ask(fetch: FetchRoots, timeoutMs: number): Promise<readonly Root[]> {
    const generation = this.generation;
    try {
      // A copy of its own, frozen through: what one caller does to its roots (a nested `_meta` too)
      // is not what the next caller is given.
      const roots = frozen(structuredClone(await fetch(timeoutMs)));
      if (generation === this.generation) this.roots = roots;
      return roots;
    } catch (error) {
      if (error instanceof RequestTimeoutError && generation === this.generation) this.silentAfterMs = error.timeoutMs;
      throw error;
    } finally {
      if (generation === this.generation) this.pending = undefined;
    }
  }
}

/** `value`, frozen with everything it holds (a roots/list answer is plain JSON data). */
function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) frozen(inner);
  }
  return value;
}
