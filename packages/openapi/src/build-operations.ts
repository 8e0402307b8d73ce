import type { JsonSchema, ToolAnnotations } from '@mcpkit/core';
import { examplesOf, schemaExamples } from './examples';
import { operationFilter, type OperationMatcher } from './filter';
import { toJsonSchema } from './json-schema';
import type { BodyEncoding, OpenApiOperation, OperationBody, OperationParameter, OperationRequest, ParameterLocation } from './operation';
import { fallbackName, NameAllocator, sanitizeName } from './tool-names';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const LOCATIONS: readonly ParameterLocation[] = ['path', 'query', 'header', 'cookie'];
// OpenAPI: header parameters with these names "SHALL be ignored" (the request's own headers say them).
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/** What shapes the operations: which are offered, and how their tools are named. */
export interface OperationOptions {
  include?: readonly OperationMatcher[];
  exclude?: readonly OperationMatcher[];
  /** Put before every tool name (`petstore_` → `petstore_getPetById`). */
  namePrefix?: string;
}

type Doc = Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function annotationsOf(method: string): ToolAnnotations {
  // Every operation reaches a service outside this server.
  const base: ToolAnnotations = { openWorldHint: true };
  switch (method) {
    case 'GET':
    case 'HEAD':
    case 'OPTIONS':
      return { ...base, readOnlyHint: true };
    case 'PUT':
      return { ...base, readOnlyHint: false, destructiveHint: false, idempotentHint: true };
    case 'DELETE':
      return { ...base, readOnlyHint: false, destructiveHint: true, idempotentHint: true };
    default:
      return { ...base, readOnlyHint: false, destructiveHint: false };
  }
}

function descriptionOf(operation: Doc, method: string, path: string): string {
  const summary = typeof operation.summary === 'string' ? operation.summary.trim() : '';
  const description = typeof operation.description === 'string' ? operation.description.trim() : '';
  const text = summary && description && summary !== description ? `${summary}\n\n${description}` : summary || description;
  return text || `${method} ${path}`;
}

/** The parameters of the path item and the operation, the operation's winning on the same name and location. */
function parametersOf(pathItem: Doc, operation: Doc): Doc[] {
  const byKey = new Map<string, Doc>();
  for (const list of [pathItem.parameters, operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const parameter of list) {
      if (!isRecord(parameter) || typeof parameter.name !== 'string' || !LOCATIONS.includes(parameter.in as ParameterLocation)) continue;
      if (parameter.in === 'header' && IGNORED_HEADERS.has(parameter.name.toLowerCase())) continue;
      byKey.set(`${String(parameter.in)}:${parameter.name}`, parameter);
    }
  }
  return [...byKey.values()];
}

function parameterSchema(parameter: Doc): unknown {
  if (parameter.schema !== undefined) return parameter.schema;
  // The content form: one media type whose schema is the value's.
  const [media] = isRecord(parameter.content) ? Object.values(parameter.content) : [];
  return isRecord(media) ? media.schema : {};
}

function readParameter(parameter: Doc, argument: string): OperationParameter {
  const location = parameter.in as ParameterLocation;
  const style = typeof parameter.style === 'string' ? parameter.style : location === 'query' || location === 'cookie' ? 'form' : 'simple';
  return {
    name: parameter.name as string,
    in: location,
    argument,
    required: location === 'path' || parameter.required === true,
    style,
    explode: typeof parameter.explode === 'boolean' ? parameter.explode : style === 'form',
    allowReserved: parameter.allowReserved === true,
  };
}

function encodingOf(mediaType: string): BodyEncoding | undefined {
  const type = mediaType.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || /^application\/[^/]+\+json$/.test(type) || type === '*/*') return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  if (type.startsWith('text/') || type === 'application/xml' || /\+xml$/.test(type)) return 'text';
  if (type === 'multipart/form-data') return undefined;
  return 'binary';
}

/** The media type to send: JSON first, then a form, text, bytes; multipart is not sent. */
function pickMedia(content: Doc): { mediaType: string; media: Doc; encoding: BodyEncoding } | undefined {
  const ranked = Object.entries(content)
    .map(([mediaType, media]) => ({ mediaType, media: isRecord(media) ? media : {}, encoding: encodingOf(mediaType) }))
    .filter((entry): entry is { mediaType: string; media: Doc; encoding: BodyEncoding } => entry.encoding !== undefined);
  const order: BodyEncoding[] = ['json', 'form', 'text', 'binary'];
  return ranked.sort((a, b) => order.indexOf(a.encoding) - order.indexOf(b.encoding))[0];
}

function bodySchema(encoding: BodyEncoding, media: Doc, openapi30: boolean): JsonSchema {
  if (encoding === 'binary') return { type: 'string', contentEncoding: 'base64', description: 'The bytes to send, base64-encoded' };
  if (encoding === 'text' && !isRecord(media.schema)) return { type: 'string' };
  return toJsonSchema(media.schema ?? {}, openapi30);
}

/** The 2xx JSON response schema: the first success status (in document order) that declares one. */
function successSchema(operation: Doc): unknown {
  if (!isRecord(operation.responses)) return undefined;
  for (const [status, response] of Object.entries(operation.responses)) {
    if (!/^2(\d\d|XX)$/i.test(status) || !isRecord(response) || !isRecord(response.content)) continue;
    for (const [mediaType, media] of Object.entries(response.content)) {
      if (encodingOf(mediaType) === 'json' && isRecord(media) && media.schema !== undefined) return media.schema;
    }
  }
  return undefined;
}

interface Arguments {
  properties: Record<string, JsonSchema>;
  required: string[];
  samples: Map<string, unknown[]>;
}

/** The parameters, each an argument: its name, or `<in>_<name>` when two locations share the name. */
function readParameters(pathItem: Doc, operation: Doc, openapi30: boolean, into: Arguments): OperationParameter[] {
  const raw = parametersOf(pathItem, operation);
  const counts = new Map<string, number>();
  for (const parameter of raw) counts.set(parameter.name as string, (counts.get(parameter.name as string) ?? 0) + 1);
  return raw.map((parameter) => {
    const name = parameter.name as string;
    const argument = counts.get(name)! > 1 ? `${String(parameter.in)}_${name}` : name;
    const read = readParameter(parameter, argument);
    const schema = toJsonSchema(parameterSchema(parameter), openapi30);
    const description = typeof parameter.description === 'string' ? parameter.description.trim() : '';
    if (description !== '' && schema.description === undefined) schema.description = description;
    if (parameter.deprecated === true) schema.deprecated = true;
    into.properties[argument] = schema;
    if (read.required) into.required.push(argument);
    into.samples.set(argument, [...examplesOf(parameter), ...schemaExamples(parameterSchema(parameter))]);
    return read;
  });
}

interface Built {
  inputSchema: JsonSchema;
  request: Omit<OperationRequest, 'method' | 'path'>;
  examples: Record<string, unknown>[];
}

/** The tool's input schema, its request, and the document's examples as arguments. */
function buildInput(pathItem: Doc, operation: Doc, openapi30: boolean): Built {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const samples = new Map<string, unknown[]>();
  const parameters = readParameters(pathItem, operation, openapi30, { properties, required, samples });
  let body: OperationBody | undefined;
  const requestBody = isRecord(operation.requestBody) ? operation.requestBody : undefined;
  const picked = requestBody && isRecord(requestBody.content) ? pickMedia(requestBody.content) : undefined;
  if (requestBody && picked) {
    const argument = properties.body === undefined ? 'body' : 'requestBody';
    body = { argument, mediaType: picked.mediaType, encoding: picked.encoding, required: requestBody.required === true };
    const schema = bodySchema(picked.encoding, picked.media, openapi30);
    if (typeof requestBody.description === 'string' && schema.description === undefined) schema.description = requestBody.description;
    properties[argument] = schema;
    if (body.required) required.push(argument);
    if (picked.encoding !== 'binary') samples.set(argument, [...examplesOf(picked.media), ...schemaExamples(picked.media.schema)]);
  }
  const inputSchema: JsonSchema = { type: 'object', properties };
  if (required.length > 0) inputSchema.required = required;
  return { inputSchema, request: { parameters, ...(body ? { body } : {}) }, examples: argumentExamples(samples, required) };
}

/**
 * Whole arguments from the examples of each argument: the first example of every argument that
 * has one, then one object per further example with that one value changed. None when a required
 * argument has no example.
 */
function argumentExamples(samples: Map<string, unknown[]>, required: readonly string[]): Record<string, unknown>[] {
  if (required.some((argument) => (samples.get(argument) ?? []).length === 0)) return [];
  const base: Record<string, unknown> = {};
  for (const [argument, values] of samples) if (values.length > 0) base[argument] = values[0];
  if (Object.keys(base).length === 0) return [];
  const all = [base];
  for (const [argument, values] of samples) for (const value of values.slice(1)) all.push({ ...base, [argument]: value });
  return all;
}

function outputOf(operation: Doc, openapi30: boolean): { outputSchema?: JsonSchema; wrapOutput?: boolean } {
  const schema = successSchema(operation);
  if (schema === undefined) return {};
  const converted = toJsonSchema(schema, openapi30);
  if (converted.type === 'object') return { outputSchema: converted };
  // outputSchema must be an object schema: anything else (an array, a string) is sent as { result }.
  return { outputSchema: { type: 'object', properties: { result: converted }, required: ['result'] }, wrapOutput: true };
}

/**
 * The operations of a dereferenced OpenAPI 3.0 or 3.1 document, as tools, in document order
 * (paths, then methods in the order OpenAPI lists them). Webhooks and callbacks are calls the
 * API makes, not operations a client calls: they are left out.
 */
export function buildOperations(document: Record<string, unknown>, options: OperationOptions = {}): OpenApiOperation[] {
  const openapi30 = typeof document.openapi === 'string' && document.openapi.startsWith('3.0');
  const offered = operationFilter(options.include, options.exclude);
  const names = new NameAllocator();
  const operations: OpenApiOperation[] = [];
  const paths = isRecord(document.paths) ? document.paths : {};
  for (const [path, pathItem] of Object.entries(paths)) {
    if (!isRecord(pathItem)) continue;
    for (const lower of METHODS) {
      const operation = pathItem[lower];
      if (!isRecord(operation)) continue;
      const method = lower.toUpperCase();
      const operationId = typeof operation.operationId === 'string' ? operation.operationId : undefined;
      const tags = Array.isArray(operation.tags) ? operation.tags.filter((tag): tag is string => typeof tag === 'string') : [];
      if (!offered({ operationId, method, path, tags })) continue;
      const base = operationId === undefined ? fallbackName(method, path) : sanitizeName(operationId);
      const name = names.take(sanitizeName(`${options.namePrefix ?? ''}${base}`));
      const input = buildInput(pathItem, operation, openapi30);
      const { outputSchema, wrapOutput } = outputOf(operation, openapi30);
      const request: OperationRequest = {
        method,
        path,
        ...input.request,
        ...(outputSchema ? { structured: true } : {}),
        ...(wrapOutput ? { wrapOutput } : {}),
      };
      operations.push({
        name,
        ...(operationId === undefined ? {} : { operationId }),
        tags,
        ...(typeof operation.summary === 'string' && operation.summary.trim() !== '' ? { title: operation.summary.trim() } : {}),
        description: descriptionOf(operation, method, path),
        inputSchema: input.inputSchema,
        ...(outputSchema ? { outputSchema } : {}),
        annotations: annotationsOf(method),
        request,
        examples: input.examples,
      });
    }
  }
  return operations;
}
