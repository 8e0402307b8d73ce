import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import type { Registry } from '../scanner/registry';
import { mountedDefinitions, type Mount } from './mount';

/** What an app does to its definitions before it offers them (`createApp({ transforms })`), compiled. */
export type RegistryTransform = (registry: Registry) => Registry;

type Kind = 'tools' | 'resources' | 'templates' | 'prompts' | 'completions';

const WHAT: Record<Kind, string> = {
  tools: 'tool',
  resources: 'resource URI',
  templates: 'resource template',
  prompts: 'prompt',
  completions: 'completion',
};

const KEY_OF: Record<Exclude<Kind, 'completions'>, string> = { tools: 'tool', resources: 'resource', templates: 'resourceTemplate', prompts: 'prompt' };

/** The enabled part of a registry, as a registry with nothing disabled. */
function enabledOnly(registry: Registry): Registry {
  if (registry.disabled.size === 0) return registry;
  const keep = <T>(kind: Exclude<Kind, 'completions'>, map: ReadonlyMap<string, T>): Map<string, T> =>
    new Map([...map].filter(([name]) => !registry.disabled.has(`${KEY_OF[kind]}:${name}`)));
  return Object.freeze({
    tools: keep('tools', registry.tools),
    resources: keep('resources', registry.resources),
    templates: keep('templates', registry.templates),
    prompts: keep('prompts', registry.prompts),
    completions: registry.completions,
    disabled: new Set<string>(),
  });
}

/** Adds `from`'s entries of one kind to `into`; a name both have is a start-up error naming both. */
function addAll<T extends { owner: string }>(kind: Kind, into: Map<string, T>, from: ReadonlyMap<string, T>, prefix: string): void {
  for (const [name, value] of from) {
    const existing = into.get(name);
    if (existing !== undefined) {
      throw new DefinitionError(
        DefinitionErrorCode.MOUNT_COLLISION,
        `The ${WHAT[kind]} "${name}" of the app mounted as "${prefix}" (${value.owner}) collides with ${existing.owner}.`,
        [`Rename one of them, or mount the app under another prefix.`, 'A transform that renames a tool may also make two names meet: check `transforms`.'],
      );
    }
    into.set(name, value);
  }
}

/**
 * What an app publishes, from its own definitions: the enabled ones, then each mounted app's
 * (namespaced; a collision is `MCPKIT_ERR_MOUNT_COLLISION`), then the transforms. Computed at
 * start-up and after each change (of the app, or of an app it mounts), never per request.
 */
export function publishRegistry(own: Registry, mounts: readonly Mount[], transform: RegistryTransform | undefined): Registry {
  let published = enabledOnly(own);
  if (mounts.length > 0) {
    const merged = {
      tools: new Map(published.tools),
      resources: new Map(published.resources),
      templates: new Map(published.templates),
      prompts: new Map(published.prompts),
      completions: new Map(published.completions),
    };
    for (const mount of mounts) {
      const mounted = mountedDefinitions(mount);
      addAll('tools', merged.tools, mounted.tools, mount.prefix);
      addAll('resources', merged.resources, mounted.resources, mount.prefix);
      addAll('templates', merged.templates, mounted.templates, mount.prefix);
      addAll('prompts', merged.prompts, mounted.prompts, mount.prefix);
      addAll('completions', merged.completions, mounted.completions, mount.prefix);
    }
    published = Object.freeze({ ...merged, disabled: published.disabled });
  }
  return transform === undefined ? published : transform(published);
}
