import type { Logger } from '../logging/logger';
import type { Constructor } from '../metadata/constructor';
import type { Implementation } from '../protocol/mcp-types';
import type { LogLevel } from '../logging/log-levels';
import type { CacheOptions } from '../results/cache-hints';
import type { EventBus } from './event-bus';
import type { TaskOptions } from './task-options';
import type { Provider } from '../scanner/scan-providers';
import type { ImpliedScopes } from '../auth/scopes';
import type { ExceptionFilter, Guard, Interceptor, PipelinePart, RateLimitOptions } from '../decorators/pipeline-types';
import type { RateLimitStore } from './rate-limit-store';
import type { RequestStateStore } from './request-state-store';
import type { TokenBudgetOptions } from './token-budget-options';
import type { ServerExtension } from './server-extension';
import type { AppImport } from './app-import';
import type { Transform } from './transforms';
import type { RootsChangedHook } from '../model/roots-change';
import type { PrecompiledValidators } from '../validation/precompiled-validators';
import { LOG_LEVELS } from '../logging/log-levels';
import { duration, type OptionTable } from '../validation/option-table';

/**
 * Options of `createApp`: the server's identity (`serverInfo`) and what it serves. Each option's
 * rule and default are in `APP_OPTIONS` below: a new option goes in both.
 */
export interface AppOptions extends Implementation {
  /** How to use this server, for the model (`InitializeResult.instructions`). */
  instructions?: string;
  /** Classes (or instances) whose methods carry `@Tool`, `@Resource`, `@ResourceTemplate`, `@Prompt`. */
  providers: readonly Provider[];
  /** Makes provider instances, e.g. from a DI container; defaults to `new Class()`. */
  resolve?: (type: Constructor) => unknown;
  /** The server's own logger; defaults to JSON lines on stderr at `LOG_LEVEL`. */
  logger?: Logger;
  /** Include tool arguments in the per-request log line (default false: arguments may hold secrets). */
  logArguments?: boolean;
  /**
   * Validators compiled ahead of time: the module `mcpkit build-validators` writes. The app then
   * generates no code (as Cloudflare Workers require) and a tool's first call compiles nothing. A
   * module made from other schemas is refused at start-up (`MCPKIT_ERR_STALE_VALIDATORS`).
   * Default: each validator is compiled by ajv at its first use. See docs/validation.md.
   *
   * @example
   * import validators from './validators.generated.js';
   * createApp({ name: 'notes', version: '1.0.0', providers: [Notes], validators });
   */
  validators?: PrecompiledValidators;
  /**
   * Client-visible logging through `ctx.log`: declares the `logging` capability and answers
   * `logging/setLevel`. Nothing is sent until the client sets a level, unless `defaultLevel` says so.
   * Default false.
   */
  clientLogging?: boolean | { defaultLevel?: LogLevel };
  /** Resource subscriptions: `resources/subscribe`, and `app.resourceUpdated(uri)` to notify (default false). */
  subscriptions?: boolean;
  /** Timeout of requests to the client (`ctx.sample`, `ctx.elicit` …) without progress, in ms (default 60 000). */
  requestTimeoutMs?: number;
  /**
   * How long `ctx.roots()` waits for the client's `roots/list` answer, in ms (default 5 000; the
   * client's progress notifications do not stretch it). The
   * roots are kept per session until the client sends `notifications/roots/list_changed`; a client
   * that lets this wait run out is not asked again in that session until it shows life (it answers
   * any request of the server's, or says its roots changed): `ctx.roots()` throws
   * `SilentClientError` at once meanwhile. A call's own `timeoutMs` wins. See docs/client-requests.md.
   */
  rootsTimeoutMs?: number;
  /**
   * Runs when a session's client says its roots changed (`notifications/roots/list_changed`),
   * after the session's kept roots are dropped: one run at a time per session, notifications that
   * arrive during a run folded into one more run after it settles. Legacy-era sessions only:
   * a 2026-07-28 request has no session to hear it on. What it throws is logged.
   *
   * @example
   * onRootsChanged: async (change) => console.error('roots now', await change.roots())
   */
  onRootsChanged?: RootsChangedHook;
  /**
   * Allow changes at run time (`app.addProviders`, `app.remove`, `app.enable`, `app.disable`):
   * tools, resources and prompts are declared with `listChanged` even while empty, and clients
   * hear of every change. Default false.
   */
  dynamic?: boolean;
  /** Cancel any tool that runs longer than this many ms and answer with an error (default: no limit). */
  toolTimeoutMs?: number;
  /**
   * Most messages in one JSON-RPC batch (2025-03-26 only; default 100). A longer batch is answered
   * with one `-32600` and none of it runs, so one line cannot make the server do unbounded work.
   */
  maxBatchLength?: number;
  /**
   * Most requests one connection (an HTTP session, a stdio connection, a legacy SSE stream) runs
   * at once, open `subscriptions/listen` requests and cancelled ones whose handler has not
   * returned included (default 1 000). Past it a request is answered `-32005` and does not run.
   */
  maxRequestsInFlight?: number;
  /**
   * Most resources one legacy-era session (an HTTP session, a stdio connection, a legacy SSE
   * stream) is subscribed to at once through `resources/subscribe` (default 1 000). Subscribing to
   * one more is `-32602` with `data.limit`, and nothing changes; unsubscribing makes room.
   */
  maxSubscriptions?: number;
  /**
   * Most entries one 2026-07-28 `subscriptions/listen` names in its filter, `resourceSubscriptions`
   * and `taskIds` together (default 100): a listen keeps its filter for as long as it is open.
   * A longer filter is `-32602` with `data.limit`, and the listen is not opened.
   */
  maxListenFilterEntries?: number;
  /** Items per page of tools/list, resources/list, … (default: everything on one page). */
  pageSize?: number;
  /**
   * Signs the `requestState` of 2026-07-28 input-required results. Default: random per process,
   * so give every instance the same secret when requests may land on any of them.
   */
  requestStateSecret?: string;
  /**
   * Remembers the input-required exchanges that completed, so replaying a completing round's
   * `requestState` within its lifetime runs nothing twice (`-32602`). Default: in this process,
   * `MemoryRequestStateStore` (100 000 exchanges at most); behind a load balancer give every
   * instance one shared store (`redisScaleOut().requestStateStore`).
   */
  requestStateStore?: RequestStateStore;
  /**
   * Longest `requestState` a 2026-07-28 retry may bring back, in characters (default 262 144,
   * 256 KiB). It carries the answers of every earlier round; a longer one is `-32602`.
   */
  maxRequestStateBytes?: number;
  /**
   * Longest URI a client may send, in characters (default 8 192, 8 KiB): `resources/read`,
   * `resources/subscribe` and `unsubscribe`, `completion/complete` with a `ref/resource`, and the
   * `resourceSubscriptions` of a 2026-07-28 `subscriptions/listen`. A longer one is `-32602`.
   * Every template is matched against the URI of a read, in time linear in its length.
   */
  maxUriLength?: number;
  /** Largest `inputResponses` of one retry, in characters of JSON, about (default 131 072, 128 KiB); `-32602` above. */
  maxInputResponsesBytes?: number;
  /** Deepest nesting of objects and arrays in one answer of `inputResponses` (default 64); `-32602` deeper. */
  maxInputDepth?: number;
  /**
   * Cache hints of 2026-07-28 results: how long clients may keep `server/discover`, the lists and
   * resource reads, and whether a shared cache may (`public`). Default: `ttlMs` 0, lists public,
   * reads private. `@Resource({ cache })` and `@ResourceTemplate({ cache })` override per resource.
   */
  cache?: CacheOptions;
  /** Carries list changes and resource updates to connections (default: in this process). */
  bus?: EventBus;
  /** Where tasks are kept and for how long, for tools declared with `@Tool({ task })` (defaults: `TaskOptions`). */
  tasks?: TaskOptions;
  /**
   * Guards of every primitive, before each class's and method's (`@UseGuards`). They run before
   * validation; a guard that throws denies. Default: none.
   */
  guards?: ReadonlyArray<PipelinePart<Guard>>;
  /** Interceptors of every primitive, outermost first, around each class's and method's (default: none). */
  interceptors?: ReadonlyArray<PipelinePart<Interceptor>>;
  /** Exception filters of every primitive, after each method's and class's (default: none). */
  filters?: ReadonlyArray<PipelinePart<ExceptionFilter>>;
  /**
   * Scope hierarchies: a granted scope stands for the ones it lists (and theirs), e.g.
   * `{ 'notes:admin': ['notes:write'], 'notes:write': ['notes:read'] }`. Default: none.
   */
  impliedScopes?: ImpliedScopes;
  /**
   * Callers without credentials (`ctx.auth` undefined) may see and use only `@Public()`
   * primitives; the rest answer with an authentication-required denial (HTTP: `401`). Default false.
   */
  requireAuth?: boolean;
  /** The rate limit of every tool without its own `@RateLimit` (default: none). */
  rateLimit?: RateLimitOptions;
  /** Where rate-limit buckets live (default: in this process, `MemoryRateLimitStore`). */
  rateLimitStore?: RateLimitStore;
  /**
   * Most tokens `tools/list` and the instructions may cost a conversation, checked once at
   * start-up: over it, a warning is logged (`{ limit, strict: true }`: createApp throws
   * `MCPKIT_ERR_TOKEN_BUDGET`). Estimated (4 characters a token) unless `count` is given;
   * `mcpkit lint --budget` counts exactly. Default: no budget, nothing counted.
   */
  tokenBudget?: number | TokenBudgetOptions;
  /**
   * Protocol extensions the app serves (`@mcpkit/skills`' `skills()` …): each is declared in
   * `capabilities.extensions` and its methods are answered on both eras. Default: none.
   */
  extensions?: readonly ServerExtension[];
  /**
   * Other apps mounted into this one, each under its prefix: their tools and prompts offered as
   * `<prefix>_<name>`, their resources as `<prefix>+<uri>`, their own guards running inside this
   * app's; a name met twice is `MCPKIT_ERR_MOUNT_COLLISION` (docs/compose.md). Default: none.
   *
   * @example
   * imports: [{ app: billing, prefix: 'billing' }]
   */
  imports?: readonly AppImport[];
  /**
   * Changes to what the app offers, in order, after its imports: rename a tool, rewrite its
   * description, hide arguments behind fixed or computed values, drop tools by name or tag, offer
   * resources and prompts as tools (docs/compose.md). Applied once at start-up. Default: none.
   *
   * @example
   * transforms: [{ tool: 'billing_charge', name: 'charge' }, { drop: { tags: ['internal'] } }]
   */
  transforms?: readonly Transform[];
}

const positive = (fallback: number) => ({ type: 'integer', min: 1, default: fallback }) as const;
const isArrayOf = (test: (item: unknown) => boolean) => (value: unknown) => Array.isArray(value) && value.every(test);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const CACHE_HINT = { type: 'object', table: { ttlMs: { type: 'integer', min: 0 }, scope: { type: 'enum', values: ['public', 'private'] } } } as const;

/** The rule and the default of every option of `createApp`, checked once by `readOptions` (docs/app.md lists them). */
export const APP_OPTIONS = {
  name: { type: 'string', required: true },
  version: { type: 'string', required: true },
  title: { type: 'string' },
  description: { type: 'string' },
  websiteUrl: { type: 'string' },
  icons: { type: 'custom', expected: 'an array of icons ({ src })', test: isArrayOf((icon) => isObject(icon) && typeof icon.src === 'string') },
  instructions: { type: 'string' },
  providers: { type: 'array', required: true },
  resolve: { type: 'function', defaultText: 'new Class()' },
  logger: { type: 'object', methods: ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'child'], defaultText: 'JSON lines on stderr at LOG_LEVEL' },
  logArguments: { type: 'boolean', default: false },
  validators: {
    type: 'custom',
    expected: 'the module mcpkit build-validators writes (with a schemasHash)',
    defaultText: 'compiled by ajv at first use',
    test: (value) => isObject(value) && typeof value.schemasHash === 'string',
  },
  clientLogging: {
    type: 'anyOf',
    rules: [{ type: 'boolean' }, { type: 'object', table: { defaultLevel: { type: 'enum', values: LOG_LEVELS } } }],
    default: false,
  },
  subscriptions: { type: 'boolean', default: false },
  requestTimeoutMs: duration({ type: 'number', above: 0, default: 60_000 }),
  rootsTimeoutMs: duration({ type: 'number', above: 0, default: 5_000 }),
  onRootsChanged: { type: 'function', defaultText: 'none' },
  dynamic: { type: 'boolean', default: false },
  toolTimeoutMs: duration({ type: 'number', above: 0, defaultText: 'no limit' }),
  maxBatchLength: positive(100),
  maxRequestsInFlight: positive(1_000),
  // ~10 MB per session at the longest URIs (8 KiB each).
  maxSubscriptions: positive(1_000),
  // A client's whole share of the default task store (`maxTasksPerOwner`).
  maxListenFilterEntries: positive(100),
  pageSize: { type: 'integer', min: 1, defaultText: 'everything on one page' },
  requestStateSecret: { type: 'string', nonEmpty: true, defaultText: 'random per process' },
  requestStateStore: { type: 'object', methods: ['claim'], defaultText: 'new MemoryRequestStateStore()' },
  maxRequestStateBytes: positive(256 * 1024),
  // 8 KiB, far beyond any URI a resource needs.
  maxUriLength: positive(8 * 1024),
  maxInputResponsesBytes: positive(128 * 1024),
  maxInputDepth: positive(64),
  cache: { type: 'object', table: { lists: CACHE_HINT, reads: CACHE_HINT }, defaultText: 'lists public, reads private, ttlMs 0' },
  bus: { type: 'object', methods: ['publish', 'subscribe'], defaultText: 'new MemoryEventBus()' },
  tasks: {
    type: 'object',
    table: {
      store: { type: 'object', methods: ['create', 'get', 'update', 'list'], defaultText: 'new MemoryTaskStore()' },
      defaultTtlMs: duration({ min: 1, default: 3_600_000 }),
      maxTtlMs: duration({ min: 1, default: 86_400_000 }),
      pollIntervalMs: duration({ min: 1, default: 1_000 }),
      pageSize: positive(50),
    },
    default: {},
  },
  guards: { type: 'array', default: [] },
  interceptors: { type: 'array', default: [] },
  filters: { type: 'array', default: [] },
  impliedScopes: {
    type: 'custom',
    expected: 'an object mapping each scope to the scopes it implies',
    test: (value) => isObject(value) && Object.values(value).every(isArrayOf((scope) => typeof scope === 'string')),
  },
  requireAuth: { type: 'boolean', default: false },
  rateLimit: {
    type: 'object',
    table: {
      limit: { type: 'integer', min: 1, required: true },
      windowMs: { type: 'number', above: 0, required: true },
      by: { type: 'anyOf', rules: [{ type: 'enum', values: ['caller', 'tool'] }, { type: 'function' }], default: 'caller' },
    },
    defaultText: 'none',
  },
  rateLimitStore: { type: 'object', methods: ['take'], defaultText: 'new MemoryRateLimitStore()' },
  extensions: { type: 'array', default: [] },
  imports: { type: 'array', default: [] },
  transforms: { type: 'array', default: [] },
  tokenBudget: {
    type: 'anyOf',
    rules: [
      { type: 'integer', min: 1 },
      { type: 'object', table: { limit: { type: 'integer', min: 1, required: true }, strict: { type: 'boolean' }, count: { type: 'function' } } },
    ],
    defaultText: 'none',
  },
} as const satisfies OptionTable<AppOptions>;
