import type { TaskStore } from './task-store';

/**
 * Options of tasks (`createApp({ tasks })`): where they are kept and for how long. Tasks are on as
 * soon as a tool says `@Tool({ task })`; these only tune them.
 *
 * @example
 * createApp({ name: 'jobs', version: '1.0.0', providers: [Jobs], tasks: { defaultTtlMs: 600_000 } });
 */
export interface TaskOptions {
  /** Where tasks are kept (default: `new MemoryTaskStore()`, this process only). */
  store?: TaskStore;
  /** How long a finished task stays readable when its client asked for no TTL (default 3 600 000, an hour). */
  defaultTtlMs?: number;
  /** Longest TTL a client may ask for (default 86 400 000, a day); longer asks get this. */
  maxTtlMs?: number;
  /** How often clients are told to poll, in ms (default 1000). */
  pollIntervalMs?: number;
  /** Tasks per `tasks/list` page (default 50). */
  pageSize?: number;
}
