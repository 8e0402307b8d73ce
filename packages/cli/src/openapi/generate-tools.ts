import type { JSONSchema } from 'json-schema-to-typescript';
import type { OpenApiOperation } from '@mcpkit/openapi';
import { pascal } from '../contract/client-gen';

/** Options of `generateOpenApiTools`. */
export interface GenerateOpenApiToolsOptions {
  /** The class's name (default `ApiTools`). */
  className?: string;
  /** The base URL the class calls by default; without one, the class must be given `baseUrl`. */
  baseUrl?: string;
  /** What the file says it was generated from (the document's path or URL, its title and version). */
  source?: string;
}

// The root the type generator is handed: one property per input type, removed from the output.
const ROOT = 'McpkitOpenApiRoot';

/** A method name from a tool name: `get-board` → `getBoard`, never a keyword or a clash. */
function methodName(name: string, taken: Set<string>): string {
  const type = pascal(name);
  let method = type[0]!.toLowerCase() + type.slice(1);
  if (['constructor', 'api'].includes(method)) method = `${method}Operation`;
  let unique = method;
  for (let n = 2; taken.has(unique); n += 1) unique = `${method}${n}`;
  taken.add(unique);
  return unique;
}

/**
 * The input type's name from the method's: written as json-schema-to-typescript writes a title
 * (a letter after a digit upper-cased), so that the interface it emits has this very name.
 */
function typeName(method: string): string {
  return `${method[0]!.toUpperCase()}${method.slice(1)}Input`.replace(/(\d)([a-z])/g, (_, digit: string, letter: string) => `${digit}${letter.toUpperCase()}`);
}

/** A value as TypeScript source: JSON, indented to sit at `indent`. */
function literal(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);
}

function comment(text: string, indent: string): string {
  return `${indent}/**\n${text
    .replace(/\*\//g, '*\\/')
    .split('\n')
    .map((line) => `${indent} *${line ? ` ${line}` : ''}`)
    .join('\n')}\n${indent} */\n`;
}

/**
 * TypeScript source for a provider class with one `@Tool` method per operation: the same tools
 * as `fromOpenApi` gives for the same operations (names, descriptions, schemas, annotations, the
 * same calls through `openApiClient`), as code a team can edit. Each tool keeps the operation's
 * JSON Schema as `inputSchema` (a DTO class cannot say all of it: `oneOf`, nullable, free-form
 * objects) and types its method's input with an interface generated from that schema.
 *
 * @example
 * const operations = buildOperations(await loadOpenApi('petstore.yaml'));
 * writeFileSync('src/petstore.tools.ts', await generateOpenApiTools(operations, { className: 'PetstoreTools' }));
 */
export async function generateOpenApiTools(operations: readonly OpenApiOperation[], options: GenerateOpenApiToolsOptions = {}): Promise<string> {
  const className = options.className ?? 'ApiTools';
  const taken = new Set<string>();
  const named = operations.map((operation) => {
    const method = methodName(operation.name, taken);
    // getPetById → GET_PET_BY_ID: the request constant beside the method.
    return {
      operation,
      method,
      constant: method.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase(),
      type: typeName(method),
    };
  });
  const properties: Record<string, unknown> = {};
  for (const { operation, type } of named) properties[type] = { ...operation.inputSchema, title: type };

  // Loaded here: it brings lodash and Prettier, which no other command of @mcpkit/cli needs.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { compile } = require('json-schema-to-typescript') as typeof import('json-schema-to-typescript');
  const types = await compile({ type: 'object', title: ROOT, properties, additionalProperties: false } as JSONSchema, ROOT, {
    bannerComment: '',
    additionalProperties: false,
    ignoreMinAndMaxItems: true,
    unknownAny: true,
    style: { singleQuote: true, printWidth: 140 },
    $refOptions: { resolve: { external: false } },
  });
  const declarations = types.replace(new RegExp(`^export interface ${ROOT} \\{[\\s\\S]*?^\\}\\n`, 'm'), '').trim();

  const requests = named.map(({ operation, constant }) => `const ${constant}: OperationRequest = ${literal(operation.request, '')};`);
  const methods = named.map(({ operation, method, constant, type }) => {
    const tool: Record<string, unknown> = { name: operation.name };
    if (operation.title !== undefined) tool.title = operation.title;
    tool.description = operation.description;
    tool.inputSchema = operation.inputSchema;
    if (operation.outputSchema !== undefined) tool.outputSchema = operation.outputSchema;
    tool.annotations = operation.annotations;
    return (
      comment(`${operation.request.method} ${operation.request.path}`, '  ') +
      `  @Tool(${literal(tool, '  ')})\n` +
      `  ${method}(input: ${type}, ctx: RequestContext): Promise<CallToolResult> {\n` +
      `    return this.api.call(${constant}, { ...input }, ctx);\n` +
      `  }\n`
    );
  });
  const baseUrl = options.baseUrl;
  const constructor =
    baseUrl === undefined
      ? `  /** Where the API is (\`baseUrl\`), and how to call it: the options of openApiClient. */\n  constructor(options: OpenApiClientOptions) {\n    this.api = openApiClient(options);\n  }\n`
      : `  /** How to call the API: the options of openApiClient; \`baseUrl\` defaults to ${baseUrl}. */\n  constructor(options: Partial<OpenApiClientOptions> = {}) {\n    this.api = openApiClient({ baseUrl: ${JSON.stringify(baseUrl)}, ...options });\n  }\n`;
  return [
    `// Generated by \`mcpkit openapi\`${options.source ? ` from ${options.source.replace(/\n/g, ' ')}` : ''}.`,
    '// Yours to edit: regenerating overwrites the file.',
    "import { Tool, type CallToolResult, type RequestContext } from '@mcpkit/core';",
    "import { openApiClient, type OpenApiClient, type OpenApiClientOptions, type OperationRequest } from '@mcpkit/openapi';",
    '',
    declarations,
    '',
    ...requests.flatMap((request) => [request, '']),
    `/** The operations of the API as tools: list the class, or an instance, in \`createApp({ providers })\`. */`,
    `export class ${className} {`,
    '  private readonly api: OpenApiClient;',
    '',
    constructor,
    methods.join('\n') + '}',
    '',
  ].join('\n');
}
