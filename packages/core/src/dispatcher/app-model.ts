import type { WireCacheHint } from '../results/cache-hints';
import type { EventBus } from '../app/event-bus';
import type { RequestStates } from '../model/request-states';
import type { LogLevel } from '../logging/log-levels';
import type { Logger } from '../logging/logger';
import type { Constructor } from '../metadata/constructor';
import type { Implementation, ServerCapabilities } from '../protocol/mcp-types';
import type { RevisionView } from '../model/revision-view';
import type { CapabilityMap, CompletionDefinition } from '../scanner/definitions';
import type { Registry } from '../scanner/registry';
import type { ValidatorFactory } from '../validation/validator-factory';
import type { MethodTable } from './method-handler';
import type { TaskRuntime } from './task-runtime';
import type { ExtensionTable } from './extension-table';
import type { PipelineSettings } from '../pipeline/pipeline-settings';
import type { RootsChangedHook } from '../model/roots-change';
import type { Pipelines } from '../pipeline/pipelines';

/** Everything `createApp` hands the app (adapters and the dispatcher read it; apps do not). */
export interface AppSettings {
  info: Implementation;
  instructions: string | undefined;
  registry: Registry;
  logger: Logger;
  /** `logger` is the one `createApp` made (none was given): a test client may choose its level. */
  defaultLogger: boolean;
  logArguments: boolean;
  validators: ValidatorFactory;
  resolve: ((type: Constructor) => unknown) | undefined;
  bus: EventBus;
  /** Client-visible logging: absent when off; `defaultLevel` sends before `logging/setLevel`. */
  clientLogging: { defaultLevel: LogLevel | undefined } | undefined;
  subscriptions: boolean;
  dynamic: boolean;
  requestTimeoutMs: number | undefined;
  /** How long one `roots/list` waits for its answer (`rootsTimeoutMs`). */
  rootsTimeoutMs: number;
  /** Told when a session's client says its roots changed (`onRootsChanged`). */
  onRootsChanged: RootsChangedHook | undefined;
  toolTimeoutMs: number | undefined;
  pageSize: number | undefined;
  maxBatchLength: number;
  maxRequestsInFlight: number;
  /** Most URIs one session is subscribed to (`maxSubscriptions`). */
  maxSubscriptions: number;
  /** Most resource URIs and task ids one listen names (`maxListenFilterEntries`). */
  maxListenFilterEntries: number;
  /** Longest URI a request may name (`maxUriLength`). */
  maxUriLength: number;
  requestState: RequestStates;
  /** `ttlMs` / `cacheScope` of each cacheable method on 2026-07-28. */
  cacheHints: ReadonlyMap<string, WireCacheHint>;
  /** The app's tasks: absent when no tool runs as a task (and `tasks` was not given). */
  tasks: TaskRuntime | undefined;
  /** The app-wide guards, interceptors, filters, scope hierarchy and rate limit. */
  pipeline: PipelineSettings;
  /** `createApp({ extensions })`, compiled. */
  extensions: ExtensionTable;
  /**
   * What the app publishes from its own definitions (the enabled ones, the apps it mounts, its
   * transforms), run at start-up and after each change.
   */
  publish: (own: Registry) => Registry;
  /** An app it mounts may change at run time: its lists are declared with `listChanged`. */
  importsChange: boolean;
}

/**
 * What serving a request needs of an app: its frozen definitions, list results per
 * revision, method table and settings. `McpApp` is one; the dispatcher never sees more.
 */
export interface AppModel {
  readonly capabilities: Readonly<ServerCapabilities>;
  readonly info: Readonly<Implementation>;
  readonly infoMeta: Readonly<Record<string, unknown>>;
  readonly instructions: string | undefined;
  readonly logger: Logger;
  readonly settings: Readonly<AppSettings>;
  readonly methods: MethodTable;
  readonly map: CapabilityMap;
  readonly completions: ReadonlyMap<string, CompletionDefinition>;
  /** The compiled pipelines of the current definitions; undefined when the app declares none. */
  readonly pipelines: Pipelines | undefined;
  view(version: string): RevisionView;
}
