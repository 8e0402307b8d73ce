import type { JSONSchema } from 'json-schema-to-typescript';
import type { McpPrompt, McpTool } from '@mcpkit/core';
import { canonicalJson } from './canonical-json';
import { DEFAULT_MANIFEST_ERA } from '../eras/manifest-eras';
import type { Manifest, ManifestEraName } from './manifest';

/** Options of `generateClient`. */
export interface GenerateClientOptions {
  /** The era whose published schemas are typed (default 2025-11-25, what today's SDK clients speak). */
  era?: ManifestEraName;
}

// The root the generator is handed: one property per named type, removed from the output.
const ROOT = 'McpkitGeneratedRoot';

/** `create_note` → `CreateNote`: a type name from a tool, prompt or template name. @internal */
export function pascal(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = words.map((word) => word[0].toUpperCase() + word.slice(1)).join('');
  return /^[A-Za-z_]/.test(joined) ? joined : `T${joined}`;
}

/** An object key as written in the generated source: bare when it is an identifier. */
function key(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

/**
 * `schema` with its local `$ref`s pointing where it now sits in the combined root, so that
 * `#/$defs/Note` of one tool stays that tool's `Note`.
 */
function rehome(schema: unknown, at: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => rehome(item, at));
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(schema)) {
    copy[name] = name === '$ref' && typeof value === 'string' && value.startsWith('#') ? `#${at}${value.slice(1)}` : rehome(value, at);
  }
  return copy;
}

/**
 * The variables of an RFC 6570 URI template, in order, without operators or modifiers; those of
 * query expressions (`{?q}`, `{&q}`) are optional, the others make the URI and are required.
 */
export function templateVariables(uriTemplate: string): { name: string; required: boolean }[] {
  const variables: { name: string; required: boolean }[] = [];
  for (const [, expression] of uriTemplate.matchAll(/\{([^}]*)\}/g)) {
    const required = !/^[?&]/.test(expression);
    for (const spec of expression.replace(/^[+#./;?&]/, '').split(',')) {
      const name = spec.replace(/(\*|:\d+)$/, '');
      if (name && !variables.some((variable) => variable.name === name)) variables.push({ name, required });
    }
  }
  return variables;
}

/** Whether every property of an input schema is optional: its parameter may then be left out. */
function allOptional(schema: McpTool['inputSchema']): boolean {
  return !Array.isArray(schema.required) || schema.required.length === 0;
}

function promptArgumentsSchema(prompt: McpPrompt): JSONSchema {
  const properties: Record<string, JSONSchema> = {};
  for (const argument of prompt.arguments ?? []) properties[argument.name] = { type: 'string', description: argument.description };
  const required = (prompt.arguments ?? []).filter((argument) => argument.required).map((argument) => argument.name);
  return { type: 'object', properties, required, additionalProperties: false };
}

// What the generated module carries besides its types: the shapes of the results it hands back,
// the interface any client meets (the official SDK's Client does), and the call helpers.
const RUNTIME = `/** A content block of a tool result or prompt message. */
export interface ContentBlock {
  type: string;
  [key: string]: unknown;
}

/** A tools/call result. */
export interface ToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** A prompts/get result. */
export interface PromptResult {
  description?: string;
  messages: { role: 'user' | 'assistant'; content: ContentBlock }[];
}

/** A resources/read result. */
export interface ResourceResult {
  contents: { uri: string; mimeType?: string; text?: string; blob?: string }[];
}

/** What the typed wrapper needs of a client: the official SDK's \`Client\` has it. */
export interface McpClientLike {
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<unknown>;
  readResource(params: { uri: string }): Promise<unknown>;
}

/** A tool answered with \`isError: true\` (or without the structured content its output schema promises). */
export class ToolCallError extends Error {
  constructor(
    readonly tool: string,
    readonly result: ToolResult,
  ) {
    const text = result.content.find((block) => block.type === 'text')?.text;
    super(\`\${tool}: \${typeof text === 'string' ? text : 'the tool failed'}\`);
    this.name = 'ToolCallError';
  }
}

`;

const CALL = `async function call(client: McpClientLike, name: string, input: object): Promise<ToolResult> {
  const result = (await client.callTool({ name, arguments: input as Record<string, unknown> })) as ToolResult;
  if (result.isError) throw new ToolCallError(name, result);
  return result;
}

`;

const STRUCTURED = `async function structured<T>(client: McpClientLike, name: string, input: object): Promise<T> {
  const result = await call(client, name, input);
  if (result.structuredContent === undefined) throw new ToolCallError(name, result);
  return result.structuredContent as T;
}

`;

const EXPAND = `// RFC 6570 expansion, levels 1 to 3: each operator's prefix, separator, whether it names the
// variable, and whether reserved characters pass unencoded.
const OPERATORS: Record<string, [string, string, boolean, boolean]> = {
  '': ['', ',', false, false],
  '+': ['', ',', false, true],
  '#': ['#', ',', false, true],
  '.': ['.', '.', false, false],
  '/': ['/', '/', false, false],
  ';': [';', ';', true, false],
  '?': ['?', '&', true, false],
  '&': ['&', '&', true, false],
};

function expand(template: string, variables: object): string {
  return template.replace(/\\{([^}]*)\\}/g, (_, expression: string) => {
    const operator = /^[+#./;?&]/.test(expression) ? expression[0] : '';
    const [prefix, separator, named, reserved] = OPERATORS[operator];
    const parts: string[] = [];
    for (const spec of expression.slice(operator.length).split(',')) {
      const name = spec.replace(/(\\*|:\\d+)$/, '');
      const value = (variables as Record<string, string | number | boolean | undefined>)[name];
      if (value === undefined) continue;
      const text = reserved ? encodeURI(String(value)) : encodeURIComponent(String(value));
      parts.push(named ? (text === '' && operator === ';' ? name : \`\${name}=\${text}\`) : text);
    }
    return parts.length === 0 ? '' : prefix + parts.join(separator);
  });
}
`;

/**
 * TypeScript for a typed client of the app a manifest describes: an interface per tool input and
 * output (from the published JSON schemas, through json-schema-to-typescript), per prompt's
 * arguments and per resource template's variables, and `createClient(client)`, a wrapper over
 * any client with `callTool` / `getPrompt` / `readResource` (the official SDK's `Client`). A tool
 * with an output schema returns its typed `structuredContent`; one without returns the result.
 * An `isError` result throws `ToolCallError`.
 *
 * @example
 * import { generateClient, loadManifest } from '@mcpkit/cli';
 * writeFileSync('notes-client.ts', await generateClient(loadManifest('dist/app.js').manifest));
 * // then: const notes = createClient(sdkClient); const note = await notes.tools.create_note({ title, body });
 */
export async function generateClient(manifest: Manifest, options: GenerateClientOptions = {}): Promise<string> {
  const era = manifest.eras[options.era ?? DEFAULT_MANIFEST_ERA];
  const properties: Record<string, unknown> = {};
  const add = (name: string, schema: unknown): string => {
    // Sorted keys: the same surface gives the same file, from the app or from its manifest file.
    properties[name] = { ...(rehome(JSON.parse(canonicalJson(schema)), `/properties/${name}`) as object), title: name };
    return name;
  };
  const tools = era.tools.map((tool) => ({
    tool,
    input: add(`${pascal(tool.name)}Input`, tool.inputSchema),
    output: tool.outputSchema ? add(`${pascal(tool.name)}Output`, tool.outputSchema) : undefined,
  }));
  const prompts = era.prompts.map((prompt) => ({ prompt, args: add(`${pascal(prompt.name)}Arguments`, promptArgumentsSchema(prompt)) }));
  const templates = era.resourceTemplates.map((template) => {
    const variables: Record<string, JSONSchema> = {};
    const found = templateVariables(template.uriTemplate);
    for (const { name } of found) variables[name] = { type: ['string', 'number', 'boolean'] };
    const required = found.filter((variable) => variable.required).map((variable) => variable.name);
    const schema: JSONSchema = { type: 'object', properties: variables, required, additionalProperties: false };
    return { template, variables: add(`${pascal(template.name)}Variables`, schema) };
  });

  // Loaded here: it brings lodash and Prettier, which no other command of @mcpkit/cli needs.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { compile } = require('json-schema-to-typescript') as typeof import('json-schema-to-typescript');
  const types = await compile({ type: 'object', title: ROOT, properties, additionalProperties: false } as JSONSchema, ROOT, {
    bannerComment: '',
    additionalProperties: false,
    ignoreMinAndMaxItems: true,
    strictIndexSignatures: true,
    unknownAny: true,
    style: { singleQuote: true, printWidth: 140 },
    // A schema's $ref never reaches outside it: no file or URL is read while generating.
    $refOptions: { resolve: { external: false } },
  });
  const declarations = types.replace(new RegExp(`^export interface ${ROOT} \\{[\\s\\S]*?^\\}\\n`, 'm'), '');

  const doc = (text: string | undefined, indent: string): string => (text ? `${indent}/** ${text.replace(/\*\//g, '*\\/').replace(/\n/g, ' ')} */\n` : '');
  const toolLines = tools.map(({ tool, input, output }) => {
    const parameter = allOptional(tool.inputSchema) ? `input: ${input} = {}` : `input: ${input}`;
    const body = output ? `structured<${output}>(client, ${JSON.stringify(tool.name)}, input)` : `call(client, ${JSON.stringify(tool.name)}, input)`;
    return `${doc(tool.description, '      ')}      ${key(tool.name)}: (${parameter}): Promise<${output ?? 'ToolResult'}> => ${body},`;
  });
  const promptLines = prompts.map(({ prompt, args }) => {
    const parameter = (prompt.arguments ?? []).some((argument) => argument.required) ? `args: ${args}` : `args: ${args} = {}`;
    return `${doc(prompt.description, '      ')}      ${key(prompt.name)}: (${parameter}) =>\n        client.getPrompt({ name: ${JSON.stringify(prompt.name)}, arguments: args as Record<string, string> }) as Promise<PromptResult>,`;
  });
  const resourceLines = era.resources.map(
    (resource) =>
      `${doc(resource.description, '      ')}      ${key(resource.name)}: () => client.readResource({ uri: ${JSON.stringify(resource.uri)} }) as Promise<ResourceResult>,`,
  );
  const templateLines = templates.map(
    ({ template, variables }) =>
      `${doc(template.description, '      ')}      ${key(template.name)}: (variables: ${variables}) =>\n        client.readResource({ uri: expand(${JSON.stringify(template.uriTemplate)}, variables) }) as Promise<ResourceResult>,`,
  );
  const section = (lines: string[]) => (lines.length === 0 ? '{}' : `{\n${lines.join('\n')}\n    }`);

  return `// Generated by \`mcpkit client\` from ${manifest.server.name} ${manifest.server.version} (${era.protocolVersion}, ${manifest.digest}).
// Do not edit: regenerate it when the server changes.

${declarations.trim()}

${RUNTIME}
${tools.length > 0 ? CALL : ''}${tools.some((tool) => tool.output) ? STRUCTURED : ''}${templates.length > 0 ? EXPAND : ''}
/**
 * The typed surface of ${manifest.server.name}, over any client with callTool / getPrompt / readResource.
 *
 * @example
 * const server = createClient(sdkClient);
 */
export function createClient(client: McpClientLike) {
  return {
    tools: ${section(toolLines)},
    prompts: ${section(promptLines)},
    resources: ${section(resourceLines)},
    templates: ${section(templateLines)},
  };
}

/** What \`createClient\` returns. */
export type ${pascal(manifest.server.name)}Client = ReturnType<typeof createClient>;
`;
}
