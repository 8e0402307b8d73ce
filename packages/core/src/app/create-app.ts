import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { createLogger } from '../logging/logger';
import type { Implementation } from '../protocol/mcp-types';
import { compilePrompt } from '../scanner/compile-prompt';
import { compileResource, compileResourceTemplate } from '../scanner/compile-resource';
import { compileTool } from '../scanner/compile-tool';
import type { CapabilityMap, CompletionDefinition, PromptDefinition, ResourceDefinition, ResourceTemplateDefinition, ToolDefinition } from '../scanner/definitions';
import { compileCompletion } from '../scanner/compile-completion';
import { MemoryEventBus } from './event-bus';
import type { DecoratedMethod } from '../scanner/scan-providers';
import { scanProviders } from '../scanner/scan-providers';
import { ValidatorFactory } from '../validation/validator-factory';
import type { AppOptions } from './app-options';
import { McpApp } from './app';

function addUnique<T>(map: Map<string, T & { owner: string }>, key: string, value: T & { owner: string }, what: string): void {
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
 * Scans the providers once, runs every start-up check, precomputes the list results and returns
 * an immutable app that any number of transports and sessions can serve.
 *
 * @throws DefinitionError with a stable code and possible fixes, for any declaration mistake.
 * @example
 * const app = createApp({ name: 'notes', version: '1.0.0', providers: [NotesTools] });
 * await serveStdio(app);
 */
export function createApp(options: AppOptions): McpApp {
  if (!options || typeof options.name !== 'string' || typeof options.version !== 'string' || !Array.isArray(options.providers)) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, 'createApp needs { name, version, providers }.', [
      "createApp({ name: 'my-server', version: '1.0.0', providers: [MyTools] })",
    ]);
  }
  const validators = new ValidatorFactory();
  const tools = new Map<string, ToolDefinition>();
  const resources = new Map<string, ResourceDefinition>();
  const templates = new Map<string, ResourceTemplateDefinition>();
  const prompts = new Map<string, PromptDefinition>();
  const completers: DecoratedMethod[] = [];
  for (const method of scanProviders(options.providers, options.resolve)) {
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
  const completions = new Map<string, CompletionDefinition>();
  for (const method of completers) {
    const [key, completion] = compileCompletion(method, prompts, templates);
    addUnique(completions, key, completion, 'Completion for');
  }
  const map: CapabilityMap = Object.freeze({ tools, resources, templates: Object.freeze([...templates.values()]), prompts });
  const info: Implementation = { name: options.name, version: options.version };
  for (const key of ['title', 'description', 'websiteUrl', 'icons'] as const) {
    if (options[key] !== undefined) Object.assign(info, { [key]: options[key] });
  }
  const logger = options.logger ?? createLogger({ name: options.name });
  const clientLogging = options.clientLogging ? { defaultLevel: options.clientLogging === true ? undefined : options.clientLogging.defaultLevel } : undefined;
  return new McpApp({
    info,
    instructions: options.instructions,
    map,
    completions,
    logger,
    logArguments: options.logArguments === true,
    validators,
    bus: options.bus ?? new MemoryEventBus(),
    clientLogging,
    subscriptions: options.subscriptions === true,
    requestTimeoutMs: options.requestTimeoutMs,
  });
}
