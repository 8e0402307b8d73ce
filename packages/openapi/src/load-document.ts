import SwaggerParser from '@apidevtools/swagger-parser';
import { parse as parseYaml } from 'yaml';
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
  let input: Doc | string;
  if (source instanceof URL) input = source.href;
  else if (typeof source === 'string') input = isText(source) ? (parseYaml(source) as Doc) : source;
  else input = structuredClone(source);
  if (typeof input !== 'string' && !isRecord(input)) throw new Error('fromOpenApi: the document text is not an object.');
  if (isRecord(input)) checkVersion(input);
  const document = (await SwaggerParser.dereference(input as never)) as unknown as Doc;
  checkVersion(document);
  return document;
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
