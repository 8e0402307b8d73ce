import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { isConstructor, type Constructor } from '../metadata/constructor';
import type { DefinitionSite } from '../metadata/definition-site';
import {
  APP_VIEW_METADATA,
  COMPLETE_METADATA,
  DEFINITION_METADATA,
  PROMPT_METADATA,
  RESOURCE_METADATA,
  RESOURCE_TEMPLATE_METADATA,
  TOOL_METADATA,
} from '../metadata/metadata-keys';

export type CapabilityKind = 'tool' | 'resource' | 'resourceTemplate' | 'view' | 'prompt' | 'complete';

const KINDS: ReadonlyArray<[CapabilityKind, string, string]> = [
  ['tool', TOOL_METADATA, '@Tool'],
  ['resource', RESOURCE_METADATA, '@Resource'],
  ['resourceTemplate', RESOURCE_TEMPLATE_METADATA, '@ResourceTemplate'],
  ['view', APP_VIEW_METADATA, '@AppView'],
  ['prompt', PROMPT_METADATA, '@Prompt'],
  ['complete', COMPLETE_METADATA, '@Complete'],
];

/** One decorated method found on a provider. */
export interface DecoratedMethod {
  kind: CapabilityKind;
  options: Record<string, unknown>;
  instance: object;
  prototype: object;
  methodName: string;
  /** `Class.method`, or the `define*` call: `defineTool("search")`. */
  owner: string;
  /** What declared it, as fixes spell it: `@Tool`, or `defineTool`. */
  label: string;
  /** Where messages say it was declared: `@Tool on Class.method`, or `defineTool("search")`. */
  site: string;
}

/** A provider: a class (instantiated through `resolve`, else `new`) or a ready instance. */
export type Provider = Constructor | object;

function instantiate(provider: Provider, resolve: ((type: Constructor) => unknown) | undefined): object {
  if (isConstructor(provider)) {
    const instance = resolve ? resolve(provider) : new provider();
    if (typeof instance !== 'object' || instance === null) {
      throw new DefinitionError(DefinitionErrorCode.INVALID_PROVIDER, `resolve(${provider.name}) returned ${String(instance)}, not an instance.`, [
        'Make `resolve` return an instance of the class it is given.',
      ]);
    }
    return instance;
  }
  if (typeof provider === 'object' && provider !== null) return provider;
  throw new DefinitionError(DefinitionErrorCode.INVALID_PROVIDER, `A provider is ${String(provider)}; providers are classes or instances.`, [
    'List classes in `providers`, e.g. providers: [NotesTools].',
  ]);
}

/** Every method name along the prototype chain, subclass first, accessors skipped. */
function methodNames(prototype: object): string[] {
  const names: string[] = [];
  for (let proto = prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor' || names.includes(name)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (descriptor && typeof descriptor.value === 'function') names.push(name);
    }
  }
  return names;
}

/** Walks each provider's prototype once and returns its decorated methods. */
export function scanProviders(providers: readonly Provider[], resolve?: (type: Constructor) => unknown): DecoratedMethod[] {
  const found: DecoratedMethod[] = [];
  for (const provider of providers) {
    const instance = instantiate(provider, resolve);
    const prototype = Object.getPrototypeOf(instance) as object;
    const className = (instance.constructor as { name?: string }).name || 'anonymous';
    const defined = Reflect.getMetadata(DEFINITION_METADATA, prototype) as DefinitionSite | undefined;
    for (const methodName of methodNames(prototype)) {
      for (const [kind, key, decorator] of KINDS) {
        const options = Reflect.getMetadata(key, prototype, methodName) as Record<string, unknown> | undefined;
        if (!options) continue;
        const owner = defined?.owner ?? `${className}.${methodName}`;
        const label = defined?.label ?? decorator;
        found.push({ kind, options, instance, prototype, methodName, owner, label, site: defined ? owner : `${decorator} on ${owner}` });
      }
    }
  }
  return found;
}
