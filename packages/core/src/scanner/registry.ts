import type { Constructor } from '../metadata/constructor';
import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import type { ValidatorFactory } from '../validation/validator-factory';
import { compileCompletion } from './compile-completion';
import { compilePrompt } from './compile-prompt';
import { compileResource, compileResourceTemplate } from './compile-resource';
import { compileTool } from './compile-tool';
import { compileView } from './compile-view';
import { VIEW_MIME_TYPE } from '../protocol/ui-extension';
import type { CapabilityMap, CompletionDefinition, PromptDefinition, ResourceDefinition, ResourceTemplateDefinition, ToolDefinition } from './definitions';
import { scanProviders, type DecoratedMethod, type Provider } from './scan-providers';

/** What can be enabled, disabled or removed at run time. */
export type CapabilityKindName = 'tool' | 'resource' | 'resourceTemplate' | 'prompt';

/** Every compiled definition of an app, disabled ones included. Replaced, never mutated, once built. */
export interface Registry {
  readonly tools: ReadonlyMap<string, ToolDefinition>;
  readonly resources: ReadonlyMap<string, ResourceDefinition>;
  readonly templates: ReadonlyMap<string, ResourceTemplateDefinition>;
  readonly prompts: ReadonlyMap<string, PromptDefinition>;
  readonly completions: ReadonlyMap<string, CompletionDefinition>;
  /** `<kind>:<name>` of disabled definitions. */
  readonly disabled: ReadonlySet<string>;
}

export const EMPTY_REGISTRY: Registry = Object.freeze({
  tools: new Map(),
  resources: new Map(),
  templates: new Map(),
  prompts: new Map(),
  completions: new Map(),
  disabled: new Set<string>(),
});

function addUnique<T extends { owner: string }>(map: Map<string, T>, key: string, value: T, what: string): void {
  const existing = map.get(key);
  if (existing) {
    throw new DefinitionError(DefinitionErrorCode.DUPLICATE_NAME, `${what} "${key}" is declared twice: by ${existing.owner} and by ${value.owner}.`, [
      `Rename one of them, e.g. @Tool({ name: '${key}_2' }) or a prefix per class.`,
      'A provider listed twice in `providers` declares everything twice.',
    ]);
  }
  map.set(key, value);
}

/**
 * Scans and compiles providers into a registry: `base`'s definitions plus the new ones, with
 * every start-up check (duplicates across both included).
 */
export function compileProviders(
  providers: readonly Provider[],
  resolve: ((type: Constructor) => unknown) | undefined,
  validators: ValidatorFactory,
  base: Registry = EMPTY_REGISTRY,
): Registry {
  const tools = new Map(base.tools);
  const resources = new Map(base.resources);
  const templates = new Map(base.templates);
  const prompts = new Map(base.prompts);
  const completions = new Map(base.completions);
  const completers: DecoratedMethod[] = [];
  for (const method of scanProviders(providers, resolve)) {
    switch (method.kind) {
      case 'tool': {
        const tool = compileTool(method, validators);
        addUnique(tools, tool.name, tool, 'Tool');
        break;
      }
      case 'resource': {
        const resource = compileResource(method);
        addUnique(resources, resource.uri, resource, 'Resource URI');
        break;
      }
      case 'view': {
        const view = compileView(method);
        addUnique(resources, view.uri, view, 'Resource URI');
        break;
      }
      case 'resourceTemplate': {
        const template = compileResourceTemplate(method);
        addUnique(templates, template.template.template, template, 'Resource template');
        break;
      }
      case 'prompt': {
        const prompt = compilePrompt(method, validators);
        addUnique(prompts, prompt.name, prompt, 'Prompt');
        break;
      }
      case 'complete':
        completers.push(method);
        break;
    }
  }
  // After the scan: a completion may sit on another class than its prompt or template.
  for (const method of completers) {
    const [key, completion] = compileCompletion(method, prompts, templates);
    addUnique(completions, key, completion, 'Completion for');
  }
  checkToolViews(tools, resources);
  return Object.freeze({ tools, resources, templates, prompts, completions, disabled: base.disabled });
}

/** Every view a tool names (`ui.view`) is a view of the app: an `@AppView`, or a resource of the view MIME type. */
function checkToolViews(tools: ReadonlyMap<string, ToolDefinition>, resources: ReadonlyMap<string, ResourceDefinition>): void {
  for (const tool of tools.values()) {
    if (tool.view === undefined || resources.get(tool.view)?.entry.mimeType === VIEW_MIME_TYPE) continue;
    const other = resources.get(tool.view);
    throw new DefinitionError(
      DefinitionErrorCode.UNKNOWN_VIEW,
      other
        ? `Tool "${tool.name}" of ${tool.owner} names the view ${tool.view}, but ${other.owner} serves that URI as a plain resource (${other.entry.mimeType ?? 'no MIME type'}).`
        : `Tool "${tool.name}" of ${tool.owner} names the view ${tool.view}, which no @AppView of this app declares.`,
      [
        `Declare it: @AppView({ uri: '${tool.view}' }) on a method returning its HTML, in a provider listed in createApp({ providers }).`,
        "Or correct the URI in the tool's ui.view.",
      ],
    );
  }
}

/**
 * Before a running app changes: every enabled tool's view is still an enabled view of the app.
 * Removing or disabling a view that a tool names would leave the tool linking to nothing.
 */
export function checkViewsServed(registry: Registry): void {
  const map = enabledMap(registry);
  for (const tool of map.tools.values()) {
    if (tool.view === undefined || map.resources.get(tool.view)?.entry.mimeType === VIEW_MIME_TYPE) continue;
    throw new DefinitionError(
      DefinitionErrorCode.UNKNOWN_VIEW,
      `Tool "${tool.name}" of ${tool.owner} names the view ${tool.view}, which this change would remove or disable; the app is unchanged.`,
      [`Remove or disable the tool "${tool.name}" first, then its view.`, `Or enable the view ${tool.view} before the tool.`],
    );
  }
}

/** Whether the app speaks MCP Apps: it has a view, or a tool with `_meta.ui` (a view's link, a visibility). */
export function usesViews(registry: Registry): boolean {
  for (const resource of registry.resources.values()) if (resource.entry.mimeType === VIEW_MIME_TYPE) return true;
  for (const tool of registry.tools.values()) if (tool.entry._meta?.ui !== undefined) return true;
  return false;
}

/** The enabled definitions: the capability map requests are served from. */
export function enabledMap(registry: Registry): CapabilityMap {
  const enabled = <T>(kind: CapabilityKindName, map: ReadonlyMap<string, T>): Map<string, T> =>
    registry.disabled.size === 0 ? new Map(map) : new Map([...map].filter(([name]) => !registry.disabled.has(`${kind}:${name}`)));
  return Object.freeze({
    tools: enabled('tool', registry.tools),
    resources: enabled('resource', registry.resources),
    templates: Object.freeze([...enabled('resourceTemplate', registry.templates).values()]),
    prompts: enabled('prompt', registry.prompts),
  });
}

/** The registry's map for one kind. */
export function definitionsOf(registry: Registry, kind: CapabilityKindName): ReadonlyMap<string, unknown> {
  switch (kind) {
    case 'tool':
      return registry.tools;
    case 'resource':
      return registry.resources;
    case 'resourceTemplate':
      return registry.templates;
    case 'prompt':
      return registry.prompts;
  }
}
