export { fromOpenApi, fromOpenApiSync, type FromOpenApiOptions, type OpenApiTools } from './from-openapi';
export { loadOpenApi, loadOpenApiSync, type OpenApiSource } from './load-document';
export { buildOperations, type OperationOptions } from './build-operations';
export { openApiClient, type OpenApiClient, type OpenApiClientOptions } from './openapi-client';
export type { OpenApiAuth, OutgoingRequest, Secret } from './auth';
export type { OperationMatcher, OperationInfo } from './filter';
export type { OpenApiOperation, OperationRequest, OperationParameter, OperationBody, BodyEncoding, ParameterLocation } from './operation';
