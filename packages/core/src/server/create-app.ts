import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { createLogger } from '../logging/logger';
import type { Implementation } from '../protocol/mcp-types';
import { compileProviders, type Registry } from '../scanner/registry';
import { MemoryTaskStore } from '../app/memory-task-store';
import { TaskRuntime } from '../dispatcher/task-runtime';
import type { Logger } from '../logging/logger';
import { ValidatorFactory } from '../validation/validator-factory';
import { APP_OPTIONS, type AppOptions } from '../app/app-options';
import { readOptions, type ReadOptions } from '../validation/option-table';
import { McpApp } from './mcp-app';
import { MemoryEventBus, type EventBus } from '../app/event-bus';
import { ERA_APP_STATE } from '../eras/app-state';
import { MemoryRequestStateStore } from '../app/request-state-store';
import { cacheHintTable } from '../results/cache-hints';
import { pipelineSettings } from './pipeline-options';
import { checkTokenBudget } from './token-budget';
import { attachExtensions, compileExtensions } from './extensions';
import { readImports, relayImports } from './mount';
import { publishRegistry } from './publish-registry';
import { compileTransforms } from './transforms/compile-transforms';

/** `createApp`'s options once read: every default applied. */
type ReadAppOptions = ReadOptions<AppOptions, typeof APP_OPTIONS>;

/**
 * Scans the providers once, runs every start-up check, precomputes the list results and returns
 * an immutable app that any number of transports and sessions can serve.
 *
 * @throws DefinitionError with a stable code and possible fixes, for any declaration mistake.
 * @example
 * const app = createApp({ name: 'notes', version: '1.0.0', providers: [NotesTools] });
 * await serveStdio(app);
 */
export function createApp(given: AppOptions): McpApp {
  const options = readOptions(APP_OPTIONS, given, {
    label: 'createApp',
    fail: (problem, hint) => new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, problem, [hint]),
  });
  const extensions = compileExtensions(options.extensions);
  const cacheHints = new Map([...cacheHintTable(options.cache), ...extensions.cacheHints]);
  const validators = new ValidatorFactory(options.validators);
  const registry = compileProviders([...options.providers, ...extensions.providers], options.resolve, validators);
  const logger = options.logger ?? createLogger({ name: options.name });
  const mounts = readImports(options.imports, logger);
  // Tools made from resources and prompts ask the app when they are called (it exists by then).
  const transform = compileTransforms(options.transforms, () => app);
  const publish = (own: Registry): Registry => publishRegistry(own, mounts, transform);
  const info: Implementation = { name: options.name, version: options.version };
  for (const key of ['title', 'description', 'websiteUrl', 'icons'] as const) {
    if (options[key] !== undefined) Object.assign(info, { [key]: options[key] });
  }
  const bus = options.bus ?? new MemoryEventBus();
  const tasks = taskRuntime(given.tasks !== undefined, taskTtls(options.tasks, given.tasks?.defaultTtlMs !== undefined), publish(registry), logger, bus);
  const clientLogging = options.clientLogging ? { defaultLevel: options.clientLogging === true ? undefined : options.clientLogging.defaultLevel } : undefined;
  const app = new McpApp({
    info,
    instructions: options.instructions,
    registry,
    logger,
    defaultLogger: options.logger === undefined,
    logArguments: options.logArguments,
    validators,
    resolve: options.resolve,
    bus,
    clientLogging,
    subscriptions: options.subscriptions,
    dynamic: options.dynamic,
    requestTimeoutMs: options.requestTimeoutMs,
    rootsTimeoutMs: options.rootsTimeoutMs,
    onRootsChanged: options.onRootsChanged,
    toolTimeoutMs: options.toolTimeoutMs,
    pageSize: options.pageSize,
    maxBatchLength: options.maxBatchLength,
    maxRequestsInFlight: options.maxRequestsInFlight,
    maxSubscriptions: options.maxSubscriptions,
    maxListenFilterEntries: options.maxListenFilterEntries,
    maxUriLength: options.maxUriLength,
    requestState: ERA_APP_STATE.requestStates(options.requestStateSecret, options, options.requestStateStore ?? new MemoryRequestStateStore()),
    cacheHints,
    tasks,
    pipeline: pipelineSettings(options),
    extensions,
    publish,
    importsChange: mounts.some((mount) => mount.app.settings.dynamic || mount.app.settings.importsChange),
  });
  relayImports(app, mounts);
  attachExtensions(options.extensions, app);
  if (options.tokenBudget !== undefined) checkTokenBudget(app, options.tokenBudget, logger);
  validators.seal();
  return app;
}

/**
 * The task options with a default TTL no longer than the longest: one given longer is refused
 * (it would outlive what clients may ask for); the default one is cut to `maxTtlMs`.
 */
function taskTtls(tasks: ReadAppOptions['tasks'], defaultGiven: boolean): ReadAppOptions['tasks'] {
  if (tasks.defaultTtlMs <= tasks.maxTtlMs) return tasks;
  if (!defaultGiven) return { ...tasks, defaultTtlMs: tasks.maxTtlMs };
  throw new DefinitionError(
    DefinitionErrorCode.INVALID_OPTIONS,
    `createApp: option "tasks.defaultTtlMs" (${tasks.defaultTtlMs} ms) must not exceed "tasks.maxTtlMs" (${tasks.maxTtlMs} ms)`,
    ['Lower "tasks.defaultTtlMs" to at most "tasks.maxTtlMs", or raise "tasks.maxTtlMs".'],
  );
}

/** The app's task runtime: only when a tool may run as a task, or tasks were configured (a dynamic app may add such tools). */
function taskRuntime(configured: boolean, given: ReadAppOptions['tasks'], registry: Registry, logger: Logger, bus: EventBus): TaskRuntime | undefined {
  let any = configured;
  for (const tool of registry.tools.values()) any ||= tool.taskSupport !== undefined;
  if (!any) return undefined;
  return new TaskRuntime(
    {
      store: given.store ?? new MemoryTaskStore(),
      defaultTtlMs: given.defaultTtlMs,
      maxTtlMs: given.maxTtlMs,
      pollIntervalMs: given.pollIntervalMs,
      pageSize: given.pageSize,
    },
    logger,
    bus,
  );
}
