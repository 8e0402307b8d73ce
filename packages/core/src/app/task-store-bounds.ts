/** The bounds every task store keeps (docs/tasks.md): how many tasks at once, and of one owner. */
export interface TaskStoreBounds {
  /** Most tasks kept at once (default 1000). */
  readonly maxTasks: number;
  /** Most tasks of one owner kept at once (default 100); an ownerless task is nobody's share, only the store's. */
  readonly maxTasksPerOwner: number;
}

/**
 * A store's bounds with the defaults applied (1000 tasks, 100 per owner), for `TaskStore`
 * implementations; throws a RangeError for a value that is not a positive integer.
 *
 * @example
 * const { maxTasks, maxTasksPerOwner } = resolveTaskStoreBounds({ maxTasks: 5000 });
 */
export function resolveTaskStoreBounds(options: Partial<TaskStoreBounds> = {}): TaskStoreBounds {
  const bound = (name: keyof TaskStoreBounds, fallback: number): number => {
    const value = options[name] ?? fallback;
    if (!(Number.isInteger(value) && value > 0)) throw new RangeError(`${name} must be a positive integer, got ${String(options[name])}`);
    return value;
  };
  return { maxTasks: bound('maxTasks', 1000), maxTasksPerOwner: bound('maxTasksPerOwner', 100) };
}
