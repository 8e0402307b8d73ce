import type { HandlerContext } from '../../dispatcher/handler-context';
import type { MethodTable } from '../../dispatcher/method-handler';
import type { SessionControls } from '../../model/session-controls';
import { McpError } from '../../errors/mcp-error';
import { ToolError } from '../../errors/tool-error';
import { isObject } from '../../protocol/json-rpc';
import type { ContentBlock, JsonSchema } from '../../protocol/mcp-types';
import { METHOD } from '../../protocol/methods';
import type { ToolDefinition } from '../../scanner/definitions';
import type { InputOutcome } from '../../validation/validator-factory';

/** The app a generated tool asks: its method table, read when the tool is called (the current one). */
export type MethodsOf = () => MethodTable | undefined;

type Field = 'string' | 'object' | 'integer';

const FIELD_CHECKS: Record<Field, (value: unknown) => boolean> = {
  string: (value) => typeof value === 'string',
  integer: (value) => Number.isSafeInteger(value) && (value as number) > 0,
  object: (value) => isObject(value) && Object.values(value).every((item) => typeof item === 'string'),
};
const FIELD_TEXT: Record<Field, string> = { string: 'a string', integer: 'a positive integer', object: 'an object of strings' };
const FIELD_SCHEMAS: Record<Field, JsonSchema> = {
  string: { type: 'string' },
  integer: { type: 'integer', minimum: 1 },
  object: { type: 'object', additionalProperties: { type: 'string' } },
};

/** A parser for the few flat arguments of a generated tool (a string, a positive integer, an object of strings), optional unless required. */
function flatParser(fields: Readonly<Record<string, Field>>, required: readonly string[]): (args: Record<string, unknown>) => InputOutcome {
  return (args) => {
    const problems: string[] = [];
    for (const name of required) if (args[name] === undefined) problems.push(`"${name}" is required`);
    const value: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(fields)) {
      const given = args[name];
      if (given === undefined) continue;
      if (FIELD_CHECKS[field](given)) value[name] = given;
      else problems.push(`"${name}" must be ${FIELD_TEXT[field]}`);
    }
    return problems.length > 0 ? { ok: false, problems } : { ok: true, value };
  };
}

function schemaOf(fields: Readonly<Record<string, Field>>, required: readonly string[], descriptions: Readonly<Record<string, string>>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [name, field] of Object.entries(fields)) {
    properties[name] = { ...FIELD_SCHEMAS[field], description: descriptions[name] };
  }
  return required.length > 0 ? { type: 'object', properties, required: [...required] } : { type: 'object', properties };
}

/** Runs one of the app's own methods for the tool's caller: the item's own guards apply; a wire error becomes the tool's error. */
async function ask(methods: MethodsOf, method: string, params: Record<string, unknown>, ctx: HandlerContext): Promise<Record<string, unknown>> {
  const handler = methods()?.get(method);
  if (handler === undefined) throw new ToolError(`This server offers nothing for ${method}.`);
  try {
    return (await handler(params, ctx, undefined as unknown as SessionControls)) as Record<string, unknown>;
  } catch (error) {
    if (McpError.isMcpError(error)) throw new ToolError(error.message);
    throw error;
  }
}

export interface Generated {
  readonly name: string;
  readonly description: string;
  readonly fields: Readonly<Record<string, Field>>;
  readonly required: readonly string[];
  readonly descriptions: Readonly<Record<string, string>>;
  readonly run: (args: Record<string, unknown>, ctx: HandlerContext) => Promise<unknown>;
}

export function generatedTool(spec: Generated): ToolDefinition {
  const entry = Object.freeze({
    name: spec.name,
    description: spec.description,
    inputSchema: Object.freeze(schemaOf(spec.fields, spec.required, spec.descriptions)),
  });
  return Object.freeze({
    name: spec.name,
    owner: `transform ${spec.name}`,
    entry: entry as ToolDefinition['entry'],
    parseInput: flatParser(spec.fields, spec.required),
    checkOutput: undefined,
    pickOutput: undefined,
    outputText: undefined,
    invoke: (input: unknown, ctx: unknown) => spec.run(input as Record<string, unknown>, ctx as HandlerContext),
    timeoutMs: undefined,
    headerParams: [],
    taskSupport: undefined,
    view: undefined,
    appOnly: false,
    policy: Object.freeze({ providerClass: undefined, methodName: spec.name, classRules: undefined, methodRules: undefined }),
    tags: [],
  });
}

const CURSOR = { cursor: 'string' } as const;
const CURSOR_TEXT = { cursor: 'The nextCursor of the previous page, if any.' };

/** `list_resources` and `read_resource`: the app's resources for clients that only call tools. */
export function resourceTools(methods: MethodsOf, names: { list: string; read: string }): ToolDefinition[] {
  return [
    generatedTool({
      name: names.list,
      description: 'Lists the resources and resource templates this server offers (URI, name, description).',
      fields: CURSOR,
      required: [],
      descriptions: CURSOR_TEXT,
      run: async (args, ctx) => {
        const resources = await ask(methods, METHOD.RESOURCES_LIST, args, ctx);
        const templates = args.cursor === undefined ? await ask(methods, METHOD.RESOURCES_TEMPLATES_LIST, {}, ctx) : { resourceTemplates: [] };
        return { resources: resources.resources, resourceTemplates: templates.resourceTemplates, nextCursor: resources.nextCursor };
      },
    }),
    generatedTool({
      name: names.read,
      description: 'Reads a resource of this server by its URI (one listed, or one a template describes).',
      fields: { uri: 'string' },
      required: ['uri'],
      descriptions: { uri: 'The URI of the resource.' },
      run: async (args, ctx) => {
        const result = await ask(methods, METHOD.RESOURCES_READ, { uri: args.uri }, ctx);
        const contents = Array.isArray(result.contents) ? (result.contents as object[]) : [];
        return { content: contents.map((resource): ContentBlock => ({ type: 'resource', resource }) as ContentBlock) };
      },
    }),
  ];
}

/** `list_prompts` and `get_prompt`: the app's prompts for clients that only call tools. */
export function promptTools(methods: MethodsOf, names: { list: string; get: string }): ToolDefinition[] {
  return [
    generatedTool({
      name: names.list,
      description: 'Lists the prompts this server offers, with their arguments.',
      fields: CURSOR,
      required: [],
      descriptions: CURSOR_TEXT,
      run: (args, ctx) => ask(methods, METHOD.PROMPTS_LIST, args, ctx),
    }),
    generatedTool({
      name: names.get,
      description: "Gets a prompt of this server by name, with its arguments; answers with the prompt's messages.",
      fields: { name: 'string', arguments: 'object' },
      required: ['name'],
      descriptions: { name: 'The name of the prompt.', arguments: 'Its arguments, each a string.' },
      run: async (args, ctx) => {
        const result = await ask(methods, METHOD.PROMPTS_GET, { name: args.name, arguments: args.arguments ?? {} }, ctx);
        const messages = Array.isArray(result.messages) ? (result.messages as Array<{ content: ContentBlock }>) : [];
        return { content: messages.map((message) => message.content) };
      },
    }),
  ];
}
