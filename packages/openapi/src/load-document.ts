import SwaggerParser from '@apidevtools/swagger-parser';
import { parse as parseYaml } from 'yaml';
import { readBounded, TOO_LARGE } from './read-bounded';
import { resolveLocalRefs } from './resolve-local-refs';

/** An OpenAPI document: the object, its JSON or YAML text, or the file path or http(s) URL it is read from. */
export type OpenApiSource = Record<string, unknown> | string | URL;

type Doc = Record<string, unknown>;

function isRecord(value: unknown): value is Doc {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string is the document's text when it holds a line break or starts as JSON; else a path or URL. */
function isText(source: string): boolean {
  return source.includes('\n') || source.trimStart().startsWith('{');
}

/**
 * Reads a document given as an object or its text, synchronously: only its local `$ref`s are
 * resolved (`resolveLocalRefs`); `loadOpenApi` reads files, URLs and `$ref`s to them.
 *
 * @throws Error when the text is not an object, the document is not OpenAPI 3.0 or 3.1, or a
 *   `$ref` names another file or points nowhere.
 */
export function loadOpenApiSync(source: Record<string, unknown> | string): Record<string, unknown> {
  const input = typeof source === 'string' ? (isText(source) ? (parseYaml(source) as unknown) : undefined) : source;
  if (typeof source === 'string' && input === undefined) {
    throw new Error('fromOpenApiSync takes the document or its text; read a file or URL with fromOpenApi.');
  }
  if (!isRecord(input)) throw new Error('fromOpenApi: the document text is not an object.');
  checkVersion(input);
  return resolveLocalRefs(input);
}

/**
 * Reads an OpenAPI 3.0 or 3.1 document and resolves its `$ref`s (local ones, and other files or
 * URLs it names) with `@apidevtools/swagger-parser`: the document whose schemas stand alone.
 * The object given is not modified. A schema that refers to itself stays a cycle of objects.
 *
 * @throws Error when the source cannot be read or parsed, is not OpenAPI 3.0 or 3.1 (Swagger 2.0
 *   is refused: convert it first), or a `$ref` does not resolve.
 */
export async function loadOpenApi(source: OpenApiSource): Promise<Record<string, unknown>> {
  const href = source instanceof URL ? source.href : typeof source === 'string' && /^https?:\/\//i.test(source) ? source : undefined;
  let input: Doc | string;
  if (href !== undefined) input = await readUrl(href);
  else if (typeof source === 'string') input = isText(source) ? (parseYaml(source) as Doc) : source;
  else input = structuredClone(source as Doc);
  if (typeof input !== 'string' && !isRecord(input)) throw new Error('fromOpenApi: the document text is not an object.');
  if (isRecord(input)) checkVersion(input);
  // A file's $ref may name a file beside it; a document from a URL, an object or a text is
  // someone else's: its $refs read no file here (`$ref: /etc/passwd` would be published as an
  // example or description). URLs stay readable: the resolver refuses private addresses.
  const fromFile = typeof input === 'string';
  const options: SwaggerParser.Options = fromFile ? {} : { resolve: { file: false } };
  const dereferenced: Promise<unknown> =
    href === undefined ? SwaggerParser.dereference(input as never, options) : SwaggerParser.dereference(href, input as never, options);
  const document = (await dereferenced.catch((error: Error) => {
    if (fromFile || !/Unable to resolve \$ref pointer "(?!https?:)/.test(error.message)) throw error;
    throw new Error(`${error.message}: a $ref to a file is read only in a document read from a file; pass the document's path.`);
  })) as unknown as Doc;
  checkVersion(document);
  return document;
}

/** The largest document `fromOpenApi` reads from a URL: the biggest public ones are a few MiB. */
const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;
const DOCUMENT_TIMEOUT_MS = 30_000;

/**
 * A document read from its URL with fetch, not by the `$ref` resolver: the resolver refuses
 * loopback and private addresses (right for a `$ref` a document names), but the URL given here
 * is the app's own choice, and a service beside the server (`http://127.0.0.1:3000/openapi.json`)
 * is the common case.
 */
async function readUrl(href: string): Promise<Doc> {
  const response = await fetch(href, {
    signal: AbortSignal.timeout(DOCUMENT_TIMEOUT_MS),
    headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.8' },
  }).catch((error: Error) => {
    throw new Error(`fromOpenApi: cannot read ${href}: ${(error.cause as Error | undefined)?.message ?? error.message}.`);
  });
  const bytes = await readBounded(response, MAX_DOCUMENT_BYTES);
  if (bytes === TOO_LARGE) throw new Error(`fromOpenApi: the document at ${href} is larger than ${MAX_DOCUMENT_BYTES} bytes.`);
  if (!response.ok) throw new Error(`fromOpenApi: cannot read ${href}: it answered ${response.status}.`);
  return parseYaml(new TextDecoder().decode(bytes)) as Doc;
}

function checkVersion(document: Doc): void {
  const version = document.openapi;
  if (typeof version !== 'string' || !/^3\.[01]\./.test(version)) {
    const found = typeof document.swagger === 'string' ? `Swagger ${document.swagger}` : `openapi ${JSON.stringify(version)}`;
    throw new Error(
      `fromOpenApi reads OpenAPI 3.0 and 3.1 documents; this one is ${found}. Convert a Swagger 2.0 document to 3.0 first (e.g. with swagger2openapi).`,
    );
  }
}
