import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { createLogger } from '../logging/logger';
import type { Implementation } from '../protocol/mcp-types';
import { compileProviders, type Registry } from '../scanner/registry';
import { MemoryTaskStore } from '../app/memory-task-store';
import { TaskRuntime } from '../dispatcher/task-runtime';
import type { Logger } from '../logging/logger';
import { ValidatorFactory } from '../validation/validator-factory';
import type { AppOptions } from '../app/app-options';
import { McpApp } from './mcp-app';
import { MemoryEventBus, type EventBus } from '../app/event-bus';
import { RequestStateCodec } from '../eras/modern/input-required';
import { MemoryRequestStateStore } from '../app/request-state-store';
import { cacheHintTable } from '../results/cache-hints';
import { pipelineSettings } from './pipeline-options';
import { checkTokenBudget } from './token-budget';

/** Default of `maxBatchLength`. */
const DEFAULT_MAX_BATCH_LENGTH = 100;
/** Default of `maxUriLength`: 8 KiB, far beyond any URI a resource needs. */
const DEFAULT_MAX_URI_LENGTH = 8 * 1024;

/** Default of `maxRequestsInFlight`. */
const DEFAULT_MAX_REQUESTS_IN_FLIGHT = 1_000;

/** Default of `maxSubscriptions`: ~10 MB per session at the longest URIs (8 KiB each). */
const DEFAULT_MAX_SUBSCRIPTIONS = 1_000;

/** Default of `maxListenFilterEntries`: a client's whole share of the default task store (`maxTasksPerOwner`). */
const DEFAULT_MAX_LISTEN_FILTER_ENTRIES = 100;

/**
 * Scans the providers once, runs every start-up check, precomputes the list results and returns
 * an immutable app that any number of transports and sessions can serve.
 *
 * @throws DefinitionError with a stable code and possible fixes, for any declaration mistake.
 * @example
 * const app = createApp({ name: 'notes', version: '1.0.0', providers: [NotesTools] });
 * await serveStdio(app);
 */
// eslint-disable-next-line complexity -- options validation moves to one schema per options object (issue #27 item 8)
export function createApp(options: AppOptions): McpApp {
  if (!options || typeof options.name !== 'string' || typeof options.version !== 'string' || !Array.isArray(options.providers)) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, 'createApp needs { name, version, providers }.', [
      "createApp({ name: 'my-server', version: '1.0.0', providers: [MyTools] })",
    ]);
  }
  if (options.pageSize !== undefined && !(Number.isInteger(options.pageSize) && options.pageSize > 0)) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `pageSize ${String(options.pageSize)} is not a positive integer.`, [
      'Give a page size such as 50, or leave it out for one page.',
    ]);
  }
  if (options.maxBatchLength !== undefined && !(Number.isInteger(options.maxBatchLength) && options.maxBatchLength > 0)) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `maxBatchLength ${String(options.maxBatchLength)} is not a positive integer.`, [
      'Give a bound such as 100, or leave it out for the default.',
    ]);
  }
  if (options.maxRequestsInFlight !== undefined && !(Number.isInteger(options.maxRequestsInFlight) && options.maxRequestsInFlight > 0)) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `maxRequestsInFlight ${String(options.maxRequestsInFlight)} is not a positive integer.`, [
      'Give a bound such as 1000, or leave it out for the default.',
    ]);
  }
  if (options.maxSubscriptions !== undefined && !(Number.isInteger(options.maxSubscriptions) && options.maxSubscriptions > 0)) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `maxSubscriptions ${String(options.maxSubscriptions)} is not a positive integer.`, [
      `Give a bound such as ${DEFAULT_MAX_SUBSCRIPTIONS}, or leave it out for the default.`,
    ]);
  }
  if (options.maxListenFilterEntries !== undefined && !(Number.isInteger(options.maxListenFilterEntries) && options.maxListenFilterEntries > 0)) {
    throw new DefinitionError(
      DefinitionErrorCode.INVALID_OPTIONS,
      `maxListenFilterEntries ${String(options.maxListenFilterEntries)} is not a positive integer.`,
      [`Give a bound such as ${DEFAULT_MAX_LISTEN_FILTER_ENTRIES}, or leave it out for the default.`],
    );
  }
  if (options.maxUriLength !== undefined && !(Number.isInteger(options.maxUriLength) && options.maxUriLength > 0)) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `maxUriLength ${String(options.maxUriLength)} is not a positive integer.`, [
      `Give a bound such as ${DEFAULT_MAX_URI_LENGTH}, or leave it out for the default.`,
    ]);
  }
  const cacheHints = cacheHintTable(options.cache);
  const validators = new ValidatorFactory();
  const registry = compileProviders(options.providers, options.resolve, validators);
  const info: Implementation = { name: options.name, version: options.version };
  for (const key of ['title', 'description', 'websiteUrl', 'icons'] as const) {
    if (options[key] !== undefined) Object.assign(info, { [key]: options[key] });
  }
  const logger = options.logger ?? createLogger({ name: options.name });
  const bus = options.bus ?? new MemoryEventBus();
  const tasks = taskRuntime(options, registry, logger, bus);
  const clientLogging = options.clientLogging ? { defaultLevel: options.clientLogging === true ? undefined : options.clientLogging.defaultLevel } : undefined;
  const app = new McpApp({
    info,
    instructions: options.instructions,
    registry,
    logger,
    defaultLogger: options.logger === undefined,
    logArguments: options.logArguments === true,
    validators,
    resolve: options.resolve,
    bus,
    clientLogging,
    subscriptions: options.subscriptions === true,
    dynamic: options.dynamic === true,
    requestTimeoutMs: options.requestTimeoutMs,
    toolTimeoutMs: options.toolTimeoutMs,
    pageSize: options.pageSize,
    maxBatchLength: options.maxBatchLength ?? DEFAULT_MAX_BATCH_LENGTH,
    maxRequestsInFlight: options.maxRequestsInFlight ?? DEFAULT_MAX_REQUESTS_IN_FLIGHT,
    maxSubscriptions: options.maxSubscriptions ?? DEFAULT_MAX_SUBSCRIPTIONS,
    maxListenFilterEntries: options.maxListenFilterEntries ?? DEFAULT_MAX_LISTEN_FILTER_ENTRIES,
    maxUriLength: options.maxUriLength ?? DEFAULT_MAX_URI_LENGTH,
    requestState: new RequestStateCodec(options.requestStateSecret, options, options.requestStateStore ?? new MemoryRequestStateStore()),
    cacheHints,
    tasks,
    pipeline: pipelineSettings(options),
  });
  if (options.tokenBudget !== undefined) checkTokenBudget(app, options.tokenBudget, logger);
  return app;
}

function positive(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(Number.isInteger(value) && value > 0)) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `tasks.${name} ${String(value)} is not a positive integer.`, [
      `Give a whole number of ${name === 'pageSize' ? 'tasks' : 'milliseconds'}, or leave it out for the default (${fallback}).`,
    ]);
  }
  return value;
}

/** The app's task runtime: only when a tool may run as a task, or tasks were configured (a dynamic app may add such tools). */
function taskRuntime(options: AppOptions, registry: Registry, logger: Logger, bus: EventBus): TaskRuntime | undefined {
  const given = options.tasks;
  let any = given !== undefined;
  for (const tool of registry.tools.values()) any ||= tool.taskSupport !== undefined;
  if (!any) return undefined;
  return new TaskRuntime(
    {
      store: given?.store ?? new MemoryTaskStore(),
      defaultTtlMs: positive(given?.defaultTtlMs, 'defaultTtlMs', 3_600_000),
      maxTtlMs: positive(given?.maxTtlMs, 'maxTtlMs', 86_400_000),
      pollIntervalMs: positive(given?.pollIntervalMs, 'pollIntervalMs', 1000),
      pageSize: positive(given?.pageSize, 'pageSize', 50),
    },
    logger,
    bus,
  );
}
