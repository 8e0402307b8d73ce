import type { ExceptionFilter, Guard, Interceptor, PipelinePart } from '../decorators/pipeline-types';
import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { isConstructor } from '../metadata/constructor';
import type { Constructor } from '../metadata/constructor';
import type { CompletionDefinition, PromptDefinition, ResourceDefinition, ResourceTemplateDefinition, ToolDefinition } from '../scanner/definitions';
import type { MountRules, Policy } from '../scanner/read-policy';
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
  /** The child's app-wide pipeline rules; undefined when it has none. */
  readonly rules: MountRules | undefined;
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
      return Object.freeze({ app, prefix, rules: mountRules(app) });
    }),
  );
}

function invalid(problem: string, fixes: string[]): DefinitionError {
  return new DefinitionError(DefinitionErrorCode.INVALID_MOUNT, problem, fixes);
}

/** What a mount does not carry: the mounted app's protocol extensions (their methods); said once, at start-up. */
function warnUnmounted(app: McpApp, prefix: string, logger: Logger): void {
  const ids = Object.keys(app.settings.extensions.capabilities);
  if (ids.length === 0 && app.settings.extensions.methods.size === 0) return;
  logger.warn(
    { prefix, extensions: ids },
    'the protocol extensions of a mounted app are not served through the app mounting it (their tools and resources are, namespaced); give them to its createApp({ extensions }) if its clients need them',
  );
}

/** The child's app-wide guards, interceptors and filters (made with its own `resolve`), `requireAuth` and rate limit. */
function mountRules(app: McpApp): MountRules | undefined {
  const settings = app.settings.pipeline;
  const make = <T>(parts: ReadonlyArray<PipelinePart<T>>): T[] =>
    parts.map((part) => (isConstructor(part) ? ((settings.resolve ? settings.resolve(part as Constructor) : new (part as Constructor)()) as T) : part));
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
  const empty = rules.guards.length + rules.interceptors.length + rules.filters.length === 0 && !rules.requireAuth && rules.rateLimit === undefined;
  return empty ? undefined : Object.freeze(rules);
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
  const { prefix, rules } = mount;
  const child = mount.app.published;
  const policy = (own: Policy): Policy => (rules === undefined ? own : Object.freeze({ ...own, mounted: [rules, ...(own.mounted ?? [])] }));
  const owner = (own: string): string => `${own} (mounted as "${prefix}")`;
  const tools = new Map<string, ToolDefinition>();
  for (const tool of child.tools.values()) {
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
  for (const mount of mounts) {
    if (mount.app.bus === app.bus) {
      // Its own list changes would come back to it as the mounted app's, for ever.
      throw invalid(`The app mounted as "${mount.prefix}" shares the importing app's event bus.`, [
        'Give the mounted app its own bus (or none: each app has its own by default).',
      ]);
    }
    mount.app.bus.subscribe((event) => {
      if (event.type === 'listChanged') app.republish(event.list);
      else if (event.type === 'resourceUpdated' && app.settings.subscriptions)
        app.bus.publish({ type: 'resourceUpdated', uri: mountedUri(mount.prefix, event.uri) });
    });
  }
}
