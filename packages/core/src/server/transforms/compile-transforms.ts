import type { DropTools, PromptsAsTools, ResourcesAsTools, SearchTools, ToolTransform, Transform } from '../../app/transforms';
import type { AppModel } from '../../dispatcher/app-model';
import { isObject } from '../../protocol/json-rpc';
import type { ToolDefinition } from '../../scanner/definitions';
import type { Registry } from '../../scanner/registry';
import type { RegistryTransform } from '../publish-registry';
import { promptTools, resourceTools, type MethodsOf } from './as-tools';
import { searchStep } from './search-step';
import { checkToolTransform, reshapeTool, transformError } from './tool-transform';

type Tools = Map<string, ToolDefinition>;

/** One transform, compiled: what it does to the tools (`strict`: at start-up, a name it gives must exist). */
type Step = (tools: Tools, strict: boolean) => Tools;

const isStringList = (value: unknown): boolean => value === undefined || (Array.isArray(value) && value.every((item) => typeof item === 'string'));

/** Adds a tool, refusing a name already taken (a rename or a generated tool meeting another). */
function addNew(tools: Tools, tool: ToolDefinition, label: string): void {
  const existing = tools.get(tool.name);
  if (existing !== undefined) {
    throw transformError(`${label} makes a tool "${tool.name}", a name ${existing.owner} already has.`, ['Choose another name, or drop the other tool first.']);
  }
  tools.set(tool.name, tool);
}

function toolStep(transform: ToolTransform, label: string): Step {
  checkToolTransform(transform, label);
  return (tools, strict) => {
    const tool = tools.get(transform.tool);
    if (tool === undefined) {
      if (strict)
        throw transformError(`${label} names the tool "${transform.tool}", which the app does not offer.`, [
          'Check the name: a mounted tool is named <prefix>_<name>.',
        ]);
      return tools;
    }
    const reshaped = reshapeTool(tool, transform, label);
    // Same place in the list; a new name must be free.
    const next: Tools = new Map();
    for (const [name, other] of tools) {
      if (name !== transform.tool) next.set(name, other);
      else if (reshaped.name === name) next.set(name, reshaped);
      else {
        if (tools.has(reshaped.name)) addNew(tools, reshaped, label);
        next.set(reshaped.name, reshaped);
      }
    }
    return next;
  };
}

function dropStep(transform: DropTools, label: string): Step {
  const { names = [], tags = [] } = isObject(transform.drop) ? transform.drop : ({} as DropTools['drop']);
  if (!isObject(transform.drop) || !isStringList(names) || !isStringList(tags)) {
    throw transformError(`${label}: drop takes { names, tags }, lists of strings.`, ["Write { drop: { names: ['debug'], tags: ['internal'] } }."]);
  }
  return (tools, strict) => {
    if (strict) {
      const missing = names.filter((name) => !tools.has(name));
      if (missing.length > 0)
        throw transformError(`${label} drops ${missing.map((name) => `"${name}"`).join(', ')}, which the app does not offer.`, ['Check the names.']);
    }
    return new Map([...tools].filter(([name, tool]) => !names.includes(name) && !tool.tags.some((tag) => tags.includes(tag))));
  };
}

function generatedStep(make: () => ToolDefinition[], label: string): Step {
  return (tools) => {
    const next = new Map(tools);
    for (const tool of make()) addNew(next, tool, label);
    return next;
  };
}

function nameOption<T extends string>(given: unknown, keys: Record<T, string>, label: string): Record<T, string> {
  if (given === true) return keys;
  if (!isObject(given) || !Object.entries(given).every(([key, value]) => key in keys && typeof value === 'string')) {
    throw transformError(`${label}: give true, or the tools' names (${Object.keys(keys).join(', ')}).`, ['Write { resourcesAsTools: true }.']);
  }
  return { ...keys, ...(given as Partial<Record<T, string>>) };
}

function stepOf(transform: Transform, label: string, app: () => AppModel): Step {
  const methods: MethodsOf = () => app().methods;
  if (!isObject(transform)) throw transformError(`${label} is ${String(transform)}, not a transform.`, ["Write { tool: 'search', name: 'find' }."]);
  if ('tool' in transform) return toolStep(transform as ToolTransform, label);
  if ('drop' in transform) return dropStep(transform as DropTools, label);
  if ('resourcesAsTools' in transform) {
    const names = nameOption((transform as ResourcesAsTools).resourcesAsTools, { list: 'list_resources', read: 'read_resource' }, label);
    return generatedStep(() => resourceTools(methods, names), label);
  }
  if ('searchTools' in transform) return searchStep(transform as SearchTools, label, app);
  if ('promptsAsTools' in transform) {
    const names = nameOption((transform as PromptsAsTools).promptsAsTools, { list: 'list_prompts', get: 'get_prompt' }, label);
    return generatedStep(() => promptTools(methods, names), label);
  }
  throw transformError(`${label} is not a transform this version knows (${Object.keys(transform).join(', ')}).`, [
    'Use { tool, name, description, hide }, { drop }, { resourcesAsTools }, { promptsAsTools } or { searchTools } (docs/compose.md).',
  ]);
}

/**
 * Compiles `createApp({ transforms })` once: each is checked now (a bad one is
 * `MCPKIT_ERR_INVALID_TRANSFORM`), then applied in order whenever the app publishes. At start-up a
 * transform naming a tool the app lacks is an error; after a runtime change it no longer applies.
 */
export function compileTransforms(transforms: readonly Transform[], app: () => AppModel): RegistryTransform | undefined {
  if (transforms.length === 0) return undefined;
  const steps = transforms.map((transform, index) => stepOf(transform, `createApp({ transforms }) entry ${index}`, app));
  let startUp = true;
  return (registry: Registry): Registry => {
    let tools: Tools = new Map(registry.tools);
    for (const step of steps) tools = step(tools, startUp);
    startUp = false;
    return Object.freeze({ ...registry, tools });
  };
}
