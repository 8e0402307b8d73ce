import { writeFileSync } from 'node:fs';
import { CliError, EXIT } from '../cli-error';
import { generateOpenApiTools } from '../openapi/generate-tools';
import { out } from '../output';

/** Options of `mcpkit openapi`. */
export interface OpenApiCommandOptions {
  /** Write the TypeScript to this file (default: stdout). */
  out?: string;
  /** The generated class's name. */
  className?: string;
  /** The base URL the class calls by default (default: the document's first absolute server URL). */
  baseUrl?: string;
  /** Operations to keep: operationIds, `METHOD /path` patterns, or `tag:<name>` (repeatable). */
  include?: string[];
  /** Operations to leave out, as for include (repeatable). */
  exclude?: string[];
  /** Put before every tool name. */
  namePrefix?: string;
}

/** `--include tag:pet` is `{ tag: 'pet' }`; anything else is an operationId or a `METHOD /path` pattern. */
function matcher(text: string): string | { tag: string } {
  return text.startsWith('tag:') ? { tag: text.slice(4) } : text;
}

/** `mcpkit openapi <spec> [--out file.ts]`: a provider class with one `@Tool` per operation of an OpenAPI document. */
export async function openapi(spec: string, options: OpenApiCommandOptions): Promise<number> {
  // Loaded here: the OpenAPI parser is needed by this command only.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { buildOperations, loadOpenApi } = require('@mcpkit/openapi') as typeof import('@mcpkit/openapi');
  let document: Record<string, unknown>;
  try {
    document = await loadOpenApi(spec);
  } catch (error) {
    throw new CliError(
      `Cannot read the OpenAPI document ${spec}: ${(error as Error).message}`,
      'Give the path or URL of an OpenAPI 3.0 or 3.1 document, JSON or YAML.',
      EXIT.USAGE,
    );
  }
  const operations = buildOperations(document, {
    include: options.include?.map(matcher),
    exclude: options.exclude?.map(matcher),
    namePrefix: options.namePrefix,
  });
  if (operations.length === 0) throw new CliError(`No operation of ${spec} is left to generate.`, 'Check --include and --exclude.', EXIT.USAGE);
  const info = (document.info ?? {}) as { title?: unknown; version?: unknown };
  const servers = Array.isArray(document.servers) ? (document.servers as Array<{ url?: unknown }>) : [];
  const server = typeof servers[0]?.url === 'string' && /^https?:\/\//i.test(servers[0].url) ? servers[0].url : undefined;
  const source = await generateOpenApiTools(operations, {
    className: options.className,
    baseUrl: options.baseUrl ?? server,
    source: `${typeof info.title === 'string' ? `"${info.title}"` : 'an OpenAPI document'}${typeof info.version === 'string' ? ` ${info.version}` : ''}`,
  });
  if (options.out) writeFileSync(options.out, source);
  else out(source.slice(0, -1));
  return EXIT.OK;
}
