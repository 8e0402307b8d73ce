import type { EventBus } from '../app/event-bus';
import type { AppSettings } from '../dispatcher/app-model';
import type { ExtensionTable } from '../dispatcher/extension-table';
import type { RevisionView } from '../model/revision-view';
import { Connection } from '../dispatcher/connection';
import type { ConnectionOptions } from '../dispatcher/connection-options';
import { Dispatcher } from '../dispatcher/dispatcher';
import { buildMethodTable, type MethodTable } from '../dispatcher/method-table';
import type { TransportInfo } from '../model/transport-info';
import type { Logger } from '../logging/logger';
import type { Implementation, ServerCapabilities } from '../protocol/mcp-types';
import { ERA_APP_STATE } from '../eras/app-state';
import type { CapabilityMap, CompletionDefinition } from '../scanner/definitions';
import { checkViewsServed, compileProviders, definitionsOf, enabledMap, usesViews, type CapabilityKindName, type Registry } from '../scanner/registry';
import { UI_EXTENSION } from '../protocol/ui-extension';
import type { Provider } from '../scanner/scan-providers';
import { compilePipelines, type Pipelines } from '../pipeline/pipelines';
import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';

export type { AppSettings, RevisionView };

interface AppState {
  /** The app's own definitions, disabled ones included: what runtime changes edit. */
  readonly registry: Registry;
  /** What it offers: its own enabled definitions, the apps it mounts, its transforms applied. */
  readonly published: Registry;
  readonly map: CapabilityMap;
  readonly views: ReadonlyMap<string, RevisionView>;
  readonly pipelines: Pipelines | undefined;
}

const LIST_OF: Record<CapabilityKindName, 'tools' | 'resources' | 'prompts'> = {
  tool: 'tools',
  resource: 'resources',
  resourceTemplate: 'resources',
  prompt: 'prompts',
};

/**
 * An MCP app made by `createApp`: the capability map, the precomputed list results per revision
 * and the method table, frozen. Serve it with `serveStdio`, the Fastify plugin or the test client;
 * each opens a `Connection` per client. With `dynamic: true` its definitions can change at run
 * time: each change swaps in a new frozen state and tells the clients.
 */
export class McpApp {
  readonly capabilities: Readonly<ServerCapabilities>;
  readonly info: Readonly<Implementation>;
  /** @internal The `_meta` of 2026-07-28 results: the server info, one frozen object. */
  readonly infoMeta: Readonly<Record<string, unknown>>;
  readonly instructions: string | undefined;
  readonly logger: Logger;
  /** @internal */
  readonly settings: Readonly<AppSettings>;
  /** @internal */
  readonly methods: MethodTable;
  /**
   * The one way in for every transport: `app.dispatcher.handle(body, channel, options)` serves a
   * message on a channel (`app.connect(transport)`, or `app.dispatcher.channel(transport)` for a
   * request that belongs to no session). Transports call it; apps rarely need it.
   */
  readonly dispatcher: Dispatcher;
  // The one mutable slot of a frozen app: swapped whole by runtime changes.
  private readonly current: { state: AppState };

  /** @internal `createApp` builds apps. */
  constructor(settings: AppSettings) {
    this.settings = Object.freeze(settings);
    this.info = settings.info;
    this.infoMeta = ERA_APP_STATE.infoMeta(settings.info);
    this.instructions = settings.instructions;
    this.logger = settings.logger;
    const dynamic = settings.dynamic || settings.importsChange;
    this.current = { state: this.buildState(settings.registry) };
    const registry = this.current.state.published;
    const capabilities: ServerCapabilities = {};
    // Declare only what the app has: an undeclared capability's methods answer -32601. A dynamic
    // app may gain anything later, so it declares the lists (with listChanged) up front.
    if (settings.clientLogging) capabilities.logging = {};
    if (registry.completions.size > 0 || dynamic) capabilities.completions = {};
    if (registry.prompts.size > 0 || dynamic) capabilities.prompts = dynamic ? { listChanged: true } : {};
    if (registry.resources.size > 0 || registry.templates.size > 0 || settings.subscriptions || dynamic) {
      capabilities.resources = { ...(settings.subscriptions ? { subscribe: true } : {}), ...(dynamic ? { listChanged: true } : {}) };
    }
    // A session's tools/list also changes with what its searches found (`searchTools`: the unlisted tools).
    const foundChange = [...registry.tools.values()].some((tool) => tool.unlisted === true);
    if (registry.tools.size > 0 || dynamic) capabilities.tools = dynamic || foundChange ? { listChanged: true } : {};
    if (settings.tasks) capabilities.tasks = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
    declareExtensions(capabilities, settings.extensions);
    // MCP Apps (SEP-1865): declared by an app that has views at start-up, on both eras.
    if (usesViews(registry)) capabilities.extensions = { ...capabilities.extensions, [UI_EXTENSION]: {} };
    this.capabilities = Object.freeze(capabilities);
    this.methods = buildMethodTable(this);
    this.dispatcher = new Dispatcher(this);
    Object.freeze(this);
  }

  /** The enabled definitions, frozen: what requests are served from right now. */
  get map(): CapabilityMap {
    return this.current.state.map;
  }

  /** @internal The compiled guards, interceptors and filters; undefined when the app declares none. */
  get pipelines(): Pipelines | undefined {
    return this.current.state.pipelines;
  }

  /** @internal The `@Complete` methods. */
  get completions(): ReadonlyMap<string, CompletionDefinition> {
    return this.current.state.published.completions;
  }

  /** @internal Every definition the app offers (mounted ones and transforms included), nothing disabled: what an app mounting this one takes. */
  get published(): Registry {
    return this.current.state.published;
  }

  /**
   * @internal An app this one mounts changed: publishes again and tells the clients. A change
   * that would collide leaves this app as it was (logged).
   */
  republish(list: 'tools' | 'resources' | 'prompts'): void {
    try {
      this.current.state = this.buildState(this.current.state.registry);
    } catch (error) {
      this.logger.error({ err: error }, 'a mounted app changed, but its new definitions cannot be published here; this app is unchanged');
      return;
    }
    this.settings.bus.publish({ type: 'listChanged', list });
  }

  /**
   * The bus app events travel on (`createApp({ bus })`), for a transport that relays them to its
   * clients itself (HTTP scale-out: only the instance holding a session's stream tells it).
   */
  get bus(): EventBus {
    return this.settings.bus;
  }

  /** The precomputed results for a protocol revision. */
  view(version: string): RevisionView {
    return ERA_APP_STATE.viewFor(this.current.state.views, version);
  }

  /**
   * Tells every client subscribed to `uri` that the resource changed
   * (`notifications/resources/updated`). Needs `createApp({ subscriptions: true })`.
   *
   * @example
   * store.on('change', (id) => app.resourceUpdated(`notes://${id}`));
   */
  resourceUpdated(uri: string): void {
    if (!this.settings.subscriptions) throw new Error('resourceUpdated needs createApp({ subscriptions: true })');
    this.settings.bus.publish({ type: 'resourceUpdated', uri });
  }

  /**
   * Adds the tools, resources and prompts of more providers to the running app (same checks as
   * at start-up), then tells the clients. Needs `createApp({ dynamic: true })`.
   *
   * @throws DefinitionError for a declaration mistake, or views (MCP Apps) in an app that had
   * none at start-up; the app is then unchanged.
   * @example
   * app.addProviders([new PluginTools(config)]);
   */
  addProviders(providers: readonly Provider[]): void {
    this.requireDynamic('addProviders');
    const before = this.current.state.registry;
    const after = compileProviders(providers, this.settings.resolve, this.settings.validators, before);
    if (this.capabilities.extensions?.[UI_EXTENSION] === undefined && usesViews(after)) {
      // Clients learnt the server's extensions once (initialize, server/discover): too late to add one.
      throw new DefinitionError(
        DefinitionErrorCode.INVALID_OPTIONS,
        `addProviders was given a view or a tool with ui, but this app did not declare MCP Apps (${UI_EXTENSION}) at start-up: it had no view then; the app is unchanged.`,
        ['Give createApp a provider with an @AppView at start-up, so that the app declares the extension.'],
      );
    }
    this.swap(after, [
      ...(after.tools.size !== before.tools.size ? (['tools'] as const) : []),
      ...(after.resources.size !== before.resources.size || after.templates.size !== before.templates.size ? (['resources'] as const) : []),
      ...(after.prompts.size !== before.prompts.size ? (['prompts'] as const) : []),
    ]);
  }

  /**
   * Removes a tool, prompt, resource (by URI) or template (by its template string). Returns whether it existed.
   *
   * @throws DefinitionError when it is a view a tool still names (MCP Apps); the app is then unchanged.
   */
  remove(kind: CapabilityKindName, name: string): boolean {
    this.requireDynamic('remove');
    const registry = this.current.state.registry;
    if (!definitionsOf(registry, kind).has(name)) return false;
    const copy = (map: ReadonlyMap<string, unknown>, own: CapabilityKindName) => (own === kind ? new Map([...map].filter(([key]) => key !== name)) : map);
    const completions =
      kind === 'prompt' || kind === 'resourceTemplate'
        ? new Map([...registry.completions].filter(([key]) => !key.startsWith(`${kind === 'prompt' ? 'prompt' : 'resource'}:${name}:`)))
        : registry.completions;
    this.swap(
      Object.freeze({
        tools: copy(registry.tools, 'tool'),
        resources: copy(registry.resources, 'resource'),
        templates: copy(registry.templates, 'resourceTemplate'),
        prompts: copy(registry.prompts, 'prompt'),
        completions,
        disabled: registry.disabled,
      } as Registry),
      [LIST_OF[kind]],
    );
    return true;
  }

  /**
   * Shows a disabled definition again. Returns whether anything changed.
   *
   * @throws DefinitionError when it is a tool whose view is disabled (MCP Apps); the app is then unchanged.
   */
  enable(kind: CapabilityKindName, name: string): boolean {
    return this.setEnabled(kind, name, true);
  }

  /**
   * Hides a definition from lists and calls (a disabled tool is an unknown tool). Returns whether anything changed.
   *
   * @throws DefinitionError when it is a view an enabled tool names (MCP Apps); the app is then unchanged.
   */
  disable(kind: CapabilityKindName, name: string): boolean {
    return this.setEnabled(kind, name, false);
  }

  /**
   * Opens a connection: one client's channel (its requests in flight, its outbound sink, the
   * session an `initialize` opens). Serve its messages with `app.dispatcher.handle(body,
   * connection)`. Transports call this; apps rarely need it.
   */
  connect(transport: TransportInfo, options?: ConnectionOptions): Connection {
    return new Connection(this, transport, options);
  }

  private setEnabled(kind: CapabilityKindName, name: string, enabled: boolean): boolean {
    this.requireDynamic(enabled ? 'enable' : 'disable');
    const registry = this.current.state.registry;
    const key = `${kind}:${name}`;
    if (!definitionsOf(registry, kind).has(name) || registry.disabled.has(key) !== enabled) return false;
    const disabled = new Set(registry.disabled);
    if (enabled) disabled.delete(key);
    else disabled.add(key);
    this.swap(Object.freeze({ ...registry, disabled }), [LIST_OF[kind]]);
    return true;
  }

  private requireDynamic(what: string): void {
    if (!this.settings.dynamic) throw new Error(`${what} changes a running app: create it with createApp({ dynamic: true })`);
  }

  /** Swaps in a new state at once (requests in flight keep the one they started with), then tells the clients. */
  private swap(registry: Registry, changed: ReadonlyArray<'tools' | 'resources' | 'prompts'>): void {
    checkViewsServed(registry);
    this.current.state = this.buildState(registry);
    for (const list of new Set(changed)) this.settings.bus.publish({ type: 'listChanged', list });
  }

  private buildState(registry: Registry): AppState {
    const published = this.settings.publish(registry);
    const map = enabledMap(published);
    const pipelines = compilePipelines(map, this.settings.pipeline);
    if (pipelines !== undefined && this.settings.pipeline.publicListsDeclared) refusePublicLists(pipelines);
    return Object.freeze({ registry, published, map, views: ERA_APP_STATE.views(map, this.info, this.settings.pageSize), pipelines });
  }
}

/** What the extensions add: their ids and settings, and `listChanged` on the lists they change. */
function declareExtensions(capabilities: ServerCapabilities, extensions: ExtensionTable): void {
  if (Object.keys(extensions.capabilities).length > 0) capabilities.extensions = { ...extensions.capabilities };
  for (const list of extensions.listChanged) capabilities[list] = { ...capabilities[list], listChanged: true };
}

/**
 * A list that varies by caller must not be cached across authorization contexts (caching.mdx,
 * A18): a `public` hint on it is a start-up mistake, not something to warn about.
 */
function refusePublicLists(pipelines: Pipelines): void {
  const varying = (['tools', 'prompts', 'resources', 'templates'] as const).filter((kind) => pipelines[kind].varies);
  if (varying.length === 0) return;
  throw new DefinitionError(
    DefinitionErrorCode.INVALID_OPTIONS,
    `createApp({ cache: { lists: { scope: 'public' } } }) is set, but the ${varying.join(', ')} list varies by caller (hidden items, guards or requireAuth).`,
    [
      "Drop scope: 'public' from cache.lists: such lists are sent with cacheScope 'private'.",
      "Or make the items visible to everyone (whenMissing: 'challenge' scopes do not change a list).",
    ],
  );
}
