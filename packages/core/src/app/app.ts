import { Connection, type ConnectionOptions } from '../dispatcher/connection';
import { buildMethodTable, type MethodTable } from '../dispatcher/method-table';
import type { TransportInfo } from '../dispatcher/request-context';
import type { Logger } from '../logging/logger';
import type { Implementation, Prompt, Resource, ResourceTemplate, ServerCapabilities, Tool } from '../protocol/mcp-types';
import { LEGACY_PROTOCOL_VERSIONS } from '../protocol/protocol-versions';
import { IMPLEMENTATION_FIELDS, PROMPT_ARGUMENT_FIELDS, PROMPT_FIELDS, RESOURCE_FIELDS, shapeForRevision, TOOL_FIELDS } from '../protocol/revision-shape';
import type { CapabilityMap, CompletionDefinition } from '../scanner/definitions';
import type { LogLevel } from '../logging/log-levels';
import type { ValidatorFactory } from '../validation/validator-factory';
import type { EventBus } from './event-bus';

/** @internal Everything `createApp` hands the app. */
export interface AppSettings {
  info: Implementation;
  instructions: string | undefined;
  map: CapabilityMap;
  completions: ReadonlyMap<string, CompletionDefinition>;
  logger: Logger;
  logArguments: boolean;
  validators: ValidatorFactory;
  bus: EventBus;
  /** Client-visible logging: absent when off; `defaultLevel` sends before `logging/setLevel`. */
  clientLogging: { defaultLevel: LogLevel | undefined } | undefined;
  subscriptions: boolean;
  requestTimeoutMs: number | undefined;
}

/** The list results and server info of one protocol revision, computed once. */
export interface RevisionView {
  readonly serverInfo: Implementation;
  readonly tools: { tools: Tool[] };
  readonly resources: { resources: Resource[] };
  readonly resourceTemplates: { resourceTemplates: ResourceTemplate[] };
  readonly prompts: { prompts: Prompt[] };
}

function freezeView(view: RevisionView): RevisionView {
  return Object.freeze(view);
}

/**
 * An immutable, transport-free MCP app made by `createApp`: the capability map, the
 * precomputed list results per revision and the method table. Serve it with `serveStdio`, the
 * Fastify plugin or the test client; each opens a `Connection` per client.
 */
export class McpApp {
  readonly capabilities: Readonly<ServerCapabilities>;
  readonly info: Readonly<Implementation>;
  readonly instructions: string | undefined;
  /** The frozen capability map. */
  readonly map: CapabilityMap;
  readonly logger: Logger;
  /** @internal */
  readonly settings: Readonly<AppSettings>;
  /** @internal */
  readonly methods: MethodTable;
  private readonly views = new Map<string, RevisionView>();

  constructor(settings: AppSettings) {
    this.settings = Object.freeze(settings);
    this.info = settings.info;
    this.instructions = settings.instructions;
    this.map = settings.map;
    this.logger = settings.logger;
    const { map } = settings;
    const capabilities: ServerCapabilities = {};
    // Declare only what the app has: an undeclared capability's methods answer -32601.
    if (settings.clientLogging) capabilities.logging = {};
    if (settings.completions.size > 0) capabilities.completions = {};
    if (map.prompts.size > 0) capabilities.prompts = {};
    if (map.resources.size > 0 || map.templates.length > 0 || settings.subscriptions) {
      capabilities.resources = settings.subscriptions ? { subscribe: true } : {};
    }
    if (map.tools.size > 0) capabilities.tools = {};
    this.capabilities = Object.freeze(capabilities);
    for (const version of LEGACY_PROTOCOL_VERSIONS) this.views.set(version, this.buildView(version));
    this.methods = buildMethodTable(this);
    Object.freeze(this);
  }

  /** The precomputed results for a protocol revision. */
  view(version: string): RevisionView {
    return this.views.get(version) ?? this.views.get(LEGACY_PROTOCOL_VERSIONS[LEGACY_PROTOCOL_VERSIONS.length - 1])!;
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
   * Opens a connection: one client's state (handshake, in-flight requests). Transports call this;
   * apps rarely need it.
   */
  connect(transport: TransportInfo, options?: ConnectionOptions): Connection {
    return new Connection(this, transport, options);
  }

  private buildView(version: string): RevisionView {
    const { map } = this;
    return freezeView({
      serverInfo: shapeForRevision({ ...this.info }, IMPLEMENTATION_FIELDS, version),
      tools: { tools: [...map.tools.values()].map((tool) => shapeForRevision(tool.entry, TOOL_FIELDS, version)) },
      resources: { resources: [...map.resources.values()].map((resource) => shapeForRevision(resource.entry, RESOURCE_FIELDS, version)) },
      resourceTemplates: { resourceTemplates: map.templates.map((template) => shapeForRevision(template.entry, RESOURCE_FIELDS, version)) },
      prompts: {
        prompts: [...map.prompts.values()].map((prompt) => {
          const shaped = shapeForRevision(prompt.entry, PROMPT_FIELDS, version);
          if (!shaped.arguments) return shaped;
          return { ...shaped, arguments: shaped.arguments.map((argument) => shapeForRevision(argument, PROMPT_ARGUMENT_FIELDS, version)) };
        }),
      },
    });
  }
}
