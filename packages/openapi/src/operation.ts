import type { JsonSchema, ToolAnnotations } from '@mcpkit/core';

/** Where a parameter goes in the HTTP request (OpenAPI's `in`). */
export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

/** One parameter of an operation: which argument holds it and how it is serialised. */
export interface OperationParameter {
  /** Its name in the request (the OpenAPI `name`). */
  readonly name: string;
  readonly in: ParameterLocation;
  /** The property of the tool's arguments that holds it: the name, or `<in>_<name>` when two locations share a name. */
  readonly argument: string;
  readonly required: boolean;
  /** OpenAPI's `style`, defaulted by location (`simple` for path and header, `form` for query and cookie). */
  readonly style: string;
  /** OpenAPI's `explode`, defaulted by style (true for `form`). */
  readonly explode: boolean;
  readonly allowReserved: boolean;
}

/** How the request body is sent: JSON, a form, text, or bytes (given as base64). */
export type BodyEncoding = 'json' | 'form' | 'text' | 'binary';

/** The request body of an operation, held by one argument. */
export interface OperationBody {
  /** The property of the tool's arguments that holds it: `body`, or `requestBody` when a parameter is named `body`. */
  readonly argument: string;
  readonly mediaType: string;
  readonly encoding: BodyEncoding;
  readonly required: boolean;
}

/**
 * What calling one operation needs, as plain data: what `fromOpenApi` builds from the document
 * and what `mcpkit openapi` writes into the generated file.
 */
export interface OperationRequest {
  /** Upper-case HTTP method. */
  readonly method: string;
  /** The path template, as the document writes it (`/pet/{petId}`). */
  readonly path: string;
  readonly parameters: readonly OperationParameter[];
  readonly body?: OperationBody;
  /** The 2xx JSON response is published wrapped as `{ result }` (its schema is not an object). */
  readonly wrapOutput?: boolean;
  /** The operation declares a 2xx JSON response schema: its answers are sent as `structuredContent`. */
  readonly structured?: boolean;
}

/** One operation of the document as a tool: its request, and what the tool publishes. */
export interface OpenApiOperation {
  /** The tool's name. */
  readonly name: string;
  readonly operationId?: string;
  readonly tags: readonly string[];
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  readonly annotations: ToolAnnotations;
  readonly request: OperationRequest;
  /** The document's own examples of the tool's arguments (parameter and request body examples), for checks. */
  readonly examples: readonly Record<string, unknown>[];
}
