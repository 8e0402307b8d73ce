// Decorator metadata needs the polyfill before any decorated class is evaluated.
import 'reflect-metadata';
import { watchForStandardDecoratorCrash } from './decorators/standard-decorator-crash';

// Before the app's DTO classes are defined: a runner that missed the tsconfig crashes there, in
// class-validator, and only this note can name the cause.
watchForStandardDecoratorCrash();

export { createApp } from './server/create-app';
export { precompiledValidatorsSource } from './server/validators-source';
export type { PrecompiledValidators } from './validation/precompiled-validators';
export { McpApp, type RevisionView } from './server/mcp-app';
export type { ListPages } from './model/list-pages';
export type { AppOptions } from './app/app-options';
export type { ServerExtension, ExtensionMethod, ExtensionMethodHandler, ExtensionHost } from './app/server-extension';
export type { TokenBudgetOptions } from './app/token-budget-options';
export type { AppImport, ImportableApp } from './app/app-import';
export type { Transform, ToolTransform, HiddenArgument, DropTools, ResourcesAsTools, PromptsAsTools, SearchTools } from './app/transforms';
export { buildServerCard, SERVER_CARD_SCHEMA, type ServerCard, type ServerCardOptions } from './app/server-card';
export type { CacheHint, CacheOptions, CacheScope } from './results/cache-hints';

export { Tool } from './decorators/tool.decorator';
export { Resource } from './decorators/resource.decorator';
export { ResourceTemplate } from './decorators/resource-template.decorator';
export { AppView } from './decorators/app-view.decorator';
export { Prompt } from './decorators/prompt.decorator';
export { Field, type FieldOptions, type FieldType } from './decorators/field.decorator';
export { Complete, type CompleteOptions } from './decorators/complete.decorator';
export { UseGuards } from './decorators/use-guards.decorator';
export { UseInterceptors } from './decorators/use-interceptors.decorator';
export { UseFilters } from './decorators/use-filters.decorator';
export { Public } from './decorators/public.decorator';
export { RequireScopes } from './decorators/require-scopes.decorator';
export { RequireRoles } from './decorators/require-roles.decorator';
export { RateLimit } from './decorators/rate-limit.decorator';
export type {
  Guard,
  Interceptor,
  ExceptionFilter,
  CallTarget,
  Operation,
  PipelinePart,
  RateLimitOptions,
  RateLimitKey,
  RequireScopesOptions,
  RequireRolesOptions,
} from './decorators/pipeline-types';
export type { AuthInfo } from './auth/auth-info';
export type { ImpliedScopes } from './auth/scopes';
export { MemoryRateLimitStore, type RateLimitStore } from './app/rate-limit-store';
export { MemoryRequestStateStore, type RequestStateStore } from './app/request-state-store';
export { RATE_LIMIT_META } from './pipeline/rate-limiter';
export type {
  CommonOptions,
  TaskSupport,
  ToolOptions,
  ToolUiOptions,
  ResourceOptions,
  ResourceTemplateOptions,
  AppViewOptions,
  ViewCsp,
  ViewPermissions,
  PromptOptions,
} from './decorators/decorator-options';
export { UI_EXTENSION, VIEW_MIME_TYPE, type ToolVisibility } from './protocol/ui-extension';
export { defineTool, type DefineToolOptions, type ToolHandler } from './define/define-tool';
export { defineResource, type DefineResourceOptions, type ResourceHandler } from './define/define-resource';
export { defineAppView, type DefineAppViewOptions, type AppViewHandler } from './define/define-app-view';
export { defineResourceTemplate, type DefineResourceTemplateOptions, type ResourceTemplateHandler } from './define/define-resource-template';
export { definePrompt, type DefinePromptOptions, type PromptHandler } from './define/define-prompt';
export { defineCompletion, type CompletionHandler } from './define/define-completion';
export type { Definition, DefinitionKind } from './define/definition';
export type { DefinePipelineOptions, DefineToolPipelineOptions } from './define/define-pipeline';

export type { RequestContext } from './model/request-context';
export type { ClientInfo } from './model/client-info';
export type { SessionInfo } from './model/session-info';
export type { RootsChange, RootsChangedHook } from './model/roots-change';
export type { TransportInfo } from './model/transport-info';
export type { ElicitResult, SamplingRequest, SamplingResult, Root, AskOptions } from './model/client-questions';
export type { TraceContext } from './model/trace-context';
export {
  CLIENT_REQUEST_CHANNEL,
  REQUEST_CHANNEL,
  SESSION_CHANNEL,
  type ClientRequestTrace,
  type RequestTrace,
  type SessionTrace,
} from './dispatcher/diagnostics-channels';
export { ClientLog } from './model/client-log';
export type { OutboundRequestOptions } from './model/outbound-request-options';
export { MemoryEventBus, type EventBus, type AppEvent } from './app/event-bus';
export { isTerminalStatus, type TaskStore, type StoredTask, type TaskChange, type TaskErrorObject } from './app/task-store';
export type { TaskStatus } from './model/task-status';
export { MemoryTaskStore, type MemoryTaskStoreOptions } from './app/memory-task-store';
export { resolveTaskStoreBounds, type TaskStoreBounds } from './app/task-store-bounds';
export { TaskStoreFullError, type TaskStoreBound } from './errors/task-store-full-error';
export type { TaskOptions } from './app/task-options';
export type { TaskHandle } from './model/task-handle';
export {
  ClientCapabilityError,
  RequestTimeoutError,
  SilentClientError,
  ConnectionClosedError,
  ClientRequestError,
  ToolTimeoutError,
} from './errors/client-errors';
export { LOG_LEVELS, isLogLevel, type LogLevel } from './logging/log-levels';

export { ErrorCode } from './errors/error-codes';
export { clip, CLIP_LENGTH } from './errors/clip';
export {
  McpError,
  ParseError,
  InvalidRequestError,
  MethodNotFoundError,
  InvalidParamsError,
  InternalError,
  ResourceNotFoundError,
  HeaderMismatchError,
  MissingRequiredClientCapabilityError,
  UnsupportedProtocolVersionError,
  TooManyRequestsInFlightError,
  type McpErrorOptions,
} from './errors/mcp-error';
export { ToolError } from './errors/tool-error';
export {
  AccessDeniedError,
  AuthenticationRequiredError,
  InvalidTokenDenial,
  InsufficientScopeError,
  ForbiddenError,
  type AccessDenial,
  type AccessDeniedData,
} from './errors/access-errors';
export { PromptError } from './errors/prompt-error';
export { ResourceError } from './errors/resource-error';
export { DefinitionError, DefinitionErrorCode, type DefinitionErrorCodeValue } from './errors/definition-error';
export { explainStandardDecoratorCrash } from './decorators/standard-decorator-crash';

export { createLogger, isLevelEnabled, type Logger, type LoggerOptions } from './logging/logger';
export { flushLogs } from './logging/exit-hooks';
export { LOG_REDACT_PATHS } from './logging/redaction';
export { LogDestination, type LogDestinationOptions } from './logging/log-destination';

export type { Constructor } from './metadata/constructor';
export type {
  Tool as McpTool,
  Resource as McpResource,
  ResourceTemplate as McpResourceTemplate,
  Prompt as McpPrompt,
  PromptArgument,
  PromptMessage,
  Icon,
  Implementation,
  ToolAnnotations,
  ContentAnnotations,
  JsonSchema,
  Meta,
  TextContent,
  ImageContent,
  AudioContent,
  EmbeddedResource,
  ResourceLink,
  ContentBlock,
  TextResourceContents,
  BlobResourceContents,
  ResourceContents,
  CallToolResult,
  ReadResourceResult,
  GetPromptResult,
  ServerCapabilities,
  ClientCapabilities,
} from './protocol/mcp-types';
export type {
  JsonRpcRequest,
  JsonRpcNotification,
  JsonRpcResponse,
  JsonRpcSuccess,
  JsonRpcFailure,
  JsonRpcMessage,
  JsonRpcErrorObject,
  RequestId,
} from './protocol/json-rpc';
export { METHOD } from './protocol/methods';
export { ExactNumberId } from './protocol/exact-id';
export {
  LEGACY_PROTOCOL_VERSIONS,
  LATEST_LEGACY_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
  type LegacyProtocolVersion,
} from './protocol/protocol-versions';

export { text, image, audio, embeddedResource, resourceLink, type Binary } from './results/content';

export { dtoToJsonSchema, type DtoSchema, type DtoSchemaOptions } from './schema/dto-to-json-schema';
export type { SchemaChecked } from './validation/drop-schema-checked';
export { UriTemplate, UriTemplateSyntaxError } from './uri-template/uri-template';
export type {
  TemplateVariables,
  TemplateOperator,
  TemplateExpressions,
  TemplateVariableSpecs,
  RequiredSpecs,
  OptionalSpecs,
  VariableName,
  VariableValue,
} from './uri-template/template-variables';
export type { Provider } from './scanner/scan-providers';
export type { CapabilityKindName } from './scanner/registry';
export type { CapabilityMap, ToolDefinition, ResourceDefinition, ResourceTemplateDefinition, PromptDefinition } from './scanner/definitions';
export type { HeaderParam } from './scanner/header-params';
