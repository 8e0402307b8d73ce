import { defineTool, type Definition } from '@mcpkit/core';
import { buildOperations, type OperationOptions } from './build-operations';
import { loadOpenApi, loadOpenApiSync, type OpenApiSource } from './load-document';
import type { OpenApiOperation } from './operation';
import { openApiClient, type OpenApiClientOptions } from './openapi-client';

/** Options of `fromOpenApi`: where the API is and how to call it, and which operations to offer. */
export interface FromOpenApiOptions extends Omit<OpenApiClientOptions, 'baseUrl'>, OperationOptions {
  /** Where the API is; default the document's first `servers` URL, when it is absolute. */
  baseUrl?: string;
}

function defaultBaseUrl(document: Record<string, unknown>): string | undefined {
  const [first] = Array.isArray(document.servers) ? (document.servers as Array<{ url?: unknown }>) : [];
  return typeof first?.url === 'string' && /^https?:\/\//i.test(first.url) ? first.url : undefined;
}

/**
 * The operations of an OpenAPI 3.0 or 3.1 document as tools, for `createApp({ providers })`:
 * one tool per operation, named from its `operationId`, its arguments the operation's path,
 * query, header and cookie parameters (each by its name) and its request body (`body`), its
 * output the 2xx JSON response. A call is an HTTP request to the API with `fetch`; a non-2xx
 * answer, a timeout or an unreachable API is an `isError` result, never a thrown error. The
 * tools go through the app's pipeline (guards, rate limits, audit) and validation as any other.
 *
 * @param document The document: an object, its JSON or YAML text, or a file path or URL.
 * @returns The tools' providers, plus `operations`: what each tool is (for docs and tests).
 * @throws Error when the document cannot be read, is not OpenAPI 3.x, or no base URL is known.
 *
 * @example
 * const petstore = await fromOpenApi('./petstore.yaml', {
 *   baseUrl: 'https://petstore3.swagger.io/api/v3',
 *   include: [{ tag: 'pet' }],
 *   exclude: ['deletePet'],
 *   auth: { apiKey: process.env.PETSTORE_KEY!, name: 'api_key' },
 * });
 * const app = createApp({ name: 'pets', version: '1.0.0', providers: petstore });
 */
export async function fromOpenApi(document: OpenApiSource, options: FromOpenApiOptions = {}): Promise<OpenApiTools> {
  return toolsOf(await loadOpenApi(document), options);
}

/**
 * `fromOpenApi` at once, for an app module that must export its app synchronously (`mcpkit
 * start`, `mcpkit inspect`): the document is an object or its JSON or YAML text, and only its
 * local `$ref`s (`#/…`) are resolved. The tools are the same as `fromOpenApi`'s.
 *
 * @throws Error when the document is not OpenAPI 3.x, a `$ref` names another file or points
 *   nowhere, or no base URL is known.
 *
 * @example
 * export const app = createApp({ name: 'pets', version: '1.0.0', providers: fromOpenApiSync(readFileSync('petstore.yaml', 'utf8'), { baseUrl }) });
 */
export function fromOpenApiSync(document: Record<string, unknown> | string, options: FromOpenApiOptions = {}): OpenApiTools {
  return toolsOf(loadOpenApiSync(document), options);
}

function toolsOf(loaded: Record<string, unknown>, options: FromOpenApiOptions): OpenApiTools {
  const baseUrl = options.baseUrl ?? defaultBaseUrl(loaded);
  if (baseUrl === undefined) throw new Error('fromOpenApi: give a baseUrl; the document names no absolute server URL.');
  const client = openApiClient({ ...options, baseUrl });
  const operations = buildOperations(loaded, options);
  const tools = operations.map((operation) =>
    defineTool(
      {
        name: operation.name,
        ...(operation.title === undefined ? {} : { title: operation.title }),
        description: operation.description,
        inputSchema: operation.inputSchema,
        ...(operation.outputSchema === undefined ? {} : { outputSchema: operation.outputSchema }),
        annotations: operation.annotations,
        // The document's tags, for createApp({ transforms: [{ drop: { tags } }] }); never sent.
        ...(operation.tags.length === 0 ? {} : { tags: operation.tags }),
      },
      (args, ctx) => client.call(operation.request, args, ctx),
    ),
  );
  return Object.assign(tools, { operations });
}

/** What `fromOpenApi` returns: the providers, and the operations they stand for. */
export type OpenApiTools = Array<Definition<'tool'>> & { readonly operations: readonly OpenApiOperation[] };
