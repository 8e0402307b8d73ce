import type { ExceptionFilter, Guard, Interceptor, PipelinePart } from '../decorators/pipeline-types';
import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { isConstructor } from '../metadata/constructor';
import type { Constructor } from '../metadata/constructor';
import type { CompletionDefinition, PromptDefinition, ResourceDefinition, ResourceTemplateDefinition, ToolDefinition } from '../scanner/definitions';
import type { MountRules, Policy, Rules } from '../scanner/read-policy';
import type { Registry } from '../scanner/registry';
import type { Logger } from '../logging/logger';
import { VIEW_SCHEME, VIEW_URI_META_KEY } from '../protocol/ui-extension';
import { UriTemplate } from '../uri-template/uri-template';
import { McpApp } from './mcp-app';
import type { AppImport } from '../app/app-import';

/** A mount as the importing app keeps it: the child, its prefix and its app-wide rules, made once. */
export interface Mount {
  readonly app: McpApp;
  readonly prefix: string;
  /** The child's app-wide rules (empty ones too: a mounted item's policy names each app it came through). */
  readonly rules: MountRules;
  /** Makes the child's guards, interceptors and filters as the child would: with its `resolve`, one instance per class. */
  readonly make: <T>(parts: ReadonlyArray<PipelinePart<T>>) => T[];
}

const PREFIX = /^[a-z][a-z0-9-]{0,31}$/;
const MAX_TOOL_NAME = 128;

/** Checks each import once at start-up and reads its app-wide rules. */
export function readImports(imports: readonly AppImport[], logger: Logger): readonly Mount[] {
  const prefixes = new Set<string>();
  return Object.freeze(
    imports.map((given, index) => {
      const { app, prefix } = (given ?? {}) as { app?: unknown; prefix?: unknown };
      const label = `createApp({ imports }) entry ${index}`;
      if (typeof prefix !== 'string' || !PREFIX.test(prefix)) {
        throw invalid(`${label} has the prefix ${JSON.stringify(prefix)}.`, [
          "Give a lowercase letter, then lowercase letters, digits or '-' (32 characters at most), e.g. prefix: 'billing'.",
        ]);
      }
      if (!(app instanceof McpApp)) {
        throw invalid(`${label} ("${prefix}") has no app.`, ["Give the app createApp made: imports: [{ app: billing, prefix: 'billing' }]."]);
      }
      if (prefixes.has(prefix)) throw invalid(`Two imports use the prefix "${prefix}".`, ['Give each import its own prefix.']);
      prefixes.add(prefix);
      warnUnmounted(app, prefix, logger);
      const make = partMaker(app);
      return Object.freeze({ app, prefix, rules: mountRules(app, make), make });
    }),
  );
}

function invalid(problem: string, fixes: string[]): DefinitionError {
  return new DefinitionError(DefinitionErrorCode.INVALID_MOUNT, problem, fixes);
}

/** What a mount does not carry: the mounted app's protocol extensions (their methods) and its transforms' tools; said once, at start-up. */
function warnUnmounted(app: McpApp, prefix: string, logger: Logger): void {
  const generated = [...app.published.tools.values()].filter((tool) => tool.generated === true).map((tool) => tool.name);
  if (generated.length > 0) {
    logger.warn(
      { prefix, tools: generated },
      "the tools a mounted app's transforms make (resourcesAsTools, promptsAsTools, searchTools) are not offered through the app mounting it; give it the transforms if its clients need them",
    );
  }
  const ids = Object.keys(app.settings.extensions.capabilities);
  if (ids.length === 0 && app.settings.extensions.methods.size === 0) return;
  logger.warn(
    { prefix, extensions: ids },
    'the protocol extensions of a mounted app are not served through the app mounting it (their tools and resources are, namespaced); give them to its createApp({ extensions }) if its clients need them',
  );
}

/**
 * The child's parts are made with the child's `resolve`, not the importing app's: a guard the
 * child's container builds with its dependencies must not be built bare (or by another container).
 */
function partMaker(app: McpApp): Mount['make'] {
  const { resolve } = app.settings.pipeline;
  const instances = new Map<Constructor, unknown>();
  const instanceOf = (type: Constructor): unknown => {
    if (!instances.has(type)) instances.set(type, resolve ? resolve(type) : new type());
    return instances.get(type);
  };
  return <T>(parts: ReadonlyArray<PipelinePart<T>>): T[] => parts.map((part) => (isConstructor(part) ? (instanceOf(part as Constructor) as T) : part));
}

/** The child's class or method rules with their parts made by the child. */
function madeRules(rules: Rules | undefined, make: Mount['make']): Rules | undefined {
  if (rules === undefined) return undefined;
  return Object.freeze({ ...rules, guards: make(rules.guards), interceptors: make(rules.interceptors), filters: make(rules.filters) });
}

/** The child's app-wide guards, interceptors and filters, `requireAuth` and rate limit. */
function mountRules(app: McpApp, make: Mount['make']): MountRules {
  const settings = app.settings.pipeline;
  const rules: MountRules = {
    guards: make<Guard>(settings.guards),
    interceptors: make<Interceptor>(settings.interceptors),
    filters: make<ExceptionFilter>(settings.filters),
    isPublic: undefined,
    scopes: [],
    roles: [],
    rateLimit: settings.rateLimit,
    requireAuth: settings.requireAuth,
  };
  return Object.freeze(rules);
}

/** The tool or prompt name a mounted one is offered under. */
export const mountedName = (prefix: string, name: string): string => `${prefix}_${name}`;

/**
 * The URI (or URI template) a mounted resource is offered under: the prefix joins its scheme
 * (`billing+invoices://7`); a view keeps the `ui://` scheme MCP Apps requires and takes the prefix
 * as its first segment (`ui://billing/board`). Both are undone by removing what was added.
 */
export const mountedUri = (prefix: string, uri: string): string =>
  uri.startsWith(VIEW_SCHEME) ? `${VIEW_SCHEME}${prefix}/${uri.slice(VIEW_SCHEME.length)}` : `${prefix}+${uri}`;

/** A mounted tool's entry: its new name, and its view's mounted URI where it names one. */
function mountedEntry(tool: ToolDefinition, name: string, view: string | undefined): ToolDefinition['entry'] {
  if (view === undefined) return Object.freeze({ ...tool.entry, name });
  const meta = tool.entry._meta ?? {};
  const ui = { ...(meta.ui as Record<string, unknown>), resourceUri: view };
  return Object.freeze({ ...tool.entry, name, _meta: { ...meta, ui, [VIEW_URI_META_KEY]: view } });
}

/**
 * The mounted app's published definitions as the importing app offers them: renamed, their
 * policy carrying the child's app-wide rules, a resource's handler still given its own URI.
 * Everything is decided here, once: a call costs one map lookup, as a direct one.
 */
export function mountedDefinitions(mount: Mount): Registry {
  const { prefix, rules, make } = mount;
  const child = mount.app.published;
  const policy = (own: Policy): Policy =>
    Object.freeze({
      ...own,
      classRules: madeRules(own.classRules, make),
      methodRules: madeRules(own.methodRules, make),
      mounted: [rules, ...(own.mounted ?? [])],
    });
  const owner = (own: string): string => `${own} (mounted as "${prefix}")`;
  const tools = new Map<string, ToolDefinition>();
  for (const { unlisted: _unlisted, ...tool } of child.tools.values()) {
    // Its transforms' tools would read around this app's guards under names it does not serve;
    // without its search tool, every one of its tools is listed here (this app may add its own).
    if (tool.generated === true) continue;
    const name = mountedName(prefix, tool.name);
    if (name.length > MAX_TOOL_NAME) {
      throw invalid(`The tool "${tool.name}" of ${tool.owner}, mounted as "${name}", is longer than ${MAX_TOOL_NAME} characters.`, [
        'Give the import a shorter prefix, or the tool a shorter name.',
      ]);
    }
    const view = tool.view === undefined ? undefined : mountedUri(prefix, tool.view);
    tools.set(name, Object.freeze({ ...tool, name, owner: owner(tool.owner), entry: mountedEntry(tool, name, view), view, policy: policy(tool.policy) }));
  }
  const resources = new Map<string, ResourceDefinition>();
  for (const resource of child.resources.values()) {
    const uri = mountedUri(prefix, resource.uri);
    // The handler reads the URI it was declared with, whatever the importing app calls it.
    const input = Object.freeze({ uri: resource.uri });
    const invoke = resource.invoke;
    resources.set(
      uri,
      Object.freeze({
        ...resource,
        uri,
        owner: owner(resource.owner),
        entry: Object.freeze({ ...resource.entry, uri }),
        invoke: (_: unknown, ctx: Parameters<typeof invoke>[1]) => invoke(input, ctx),
        policy: policy(resource.policy),
      }),
    );
  }
  const templates = new Map<string, ResourceTemplateDefinition>();
  for (const template of child.templates.values()) {
    const uriTemplate = mountedUri(prefix, template.entry.uriTemplate);
    templates.set(
      uriTemplate,
      Object.freeze({
        ...template,
        template: UriTemplate.parse(uriTemplate),
        owner: owner(template.owner),
        entry: Object.freeze({ ...template.entry, uriTemplate }),
        policy: policy(template.policy),
      }),
    );
  }
  const prompts = new Map<string, PromptDefinition>();
  for (const prompt of child.prompts.values()) {
    const name = mountedName(prefix, prompt.name);
    prompts.set(
      name,
      Object.freeze({ ...prompt, name, owner: owner(prompt.owner), entry: Object.freeze({ ...prompt.entry, name }), policy: policy(prompt.policy) }),
    );
  }
  return Object.freeze({ tools, resources, templates, prompts, completions: mountedCompletions(prefix, child.completions), disabled: new Set<string>() });
}

/** `prompt:<name>:<argument>` and `resource:<template>:<variable>`, renamed as their prompt or template. */
function mountedCompletions(prefix: string, completions: ReadonlyMap<string, CompletionDefinition>): Map<string, CompletionDefinition> {
  const renamed = new Map<string, CompletionDefinition>();
  for (const [key, completion] of completions) {
    // The argument or variable name is last; a prompt name or a template may hold ':'.
    const first = key.indexOf(':');
    const last = key.lastIndexOf(':');
    const kind = key.slice(0, first);
    const target = key.slice(first + 1, last);
    const mapped = kind === 'prompt' ? mountedName(prefix, target) : mountedUri(prefix, target);
    renamed.set(`${kind}:${mapped}:${key.slice(last + 1)}`, completion);
  }
  return renamed;
}

/**
 * Carries what happens in the mounted apps to the importing app's clients: a list change
 * publishes the importing app again (its clients hear `list_changed`), a resource update is
 * heard under the mounted URI. Runs once per import at start-up; a mount lives as long as its apps.
 */
export function relayImports(app: McpApp, mounts: readonly Mount[]): void {
  // One subscription per mounted app: an app mounted under two prefixes is one change, heard once.
  const prefixesOf = new Map<McpApp, string[]>();
  for (const mount of mounts) {
    if (mount.app.bus === app.bus) {
      // Its own list changes would come back to it as the mounted app's, for ever.
      throw invalid(`The app mounted as "${mount.prefix}" shares the importing app's event bus.`, [
        'Give the mounted app its own bus (or none: each app has its own by default).',
      ]);
    }
    prefixesOf.set(mount.app, [...(prefixesOf.get(mount.app) ?? []), mount.prefix]);
  }
  for (const [mounted, prefixes] of prefixesOf) {
    mounted.bus.subscribe((event) => {
      if (event.type === 'listChanged') app.republish(event.list);
      else if (event.type === 'resourceUpdated' && app.settings.subscriptions)
        for (const prefix of prefixes) app.bus.publish({ type: 'resourceUpdated', uri: mountedUri(prefix, event.uri) });
    });
  }
}
