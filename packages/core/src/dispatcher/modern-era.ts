import type { McpApp } from '../app/app';
import type { WireCacheHint } from '../app/cache-hints';
import { clip, clipJson } from '../errors/clip';
import { InvalidParamsError, McpError } from '../errors/mcp-error';
import { isLogLevel, type LogLevel } from '../logging/log-levels';
import { isObject } from '../protocol/json-rpc';
import type { ClientCapabilities, Implementation, ServerCapabilities } from '../protocol/mcp-types';
import { METHOD } from '../protocol/methods';
import { LEGACY_PROTOCOL_VERSIONS } from '../protocol/protocol-versions';
import type { ClientInfo } from './request-context';

// The stateless revision (protocol.md §3.2): every request carries its version and client.
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;
export const META = {
  PROTOCOL_VERSION: 'io.modelcontextprotocol/protocolVersion',
  CLIENT_CAPABILITIES: 'io.modelcontextprotocol/clientCapabilities',
  CLIENT_INFO: 'io.modelcontextprotocol/clientInfo',
  LOG_LEVEL: 'io.modelcontextprotocol/logLevel',
  SERVER_INFO: 'io.modelcontextprotocol/serverInfo',
} as const;
export const SERVER_DISCOVER = 'server/discover';

const MODERN: ReadonlySet<string> = new Set(MODERN_PROTOCOL_VERSIONS);
// Gone in 2026-07-28: unknown methods under a modern claim, even on a dual-era server.
const REMOVED: ReadonlySet<string> = new Set([METHOD.INITIALIZE, METHOD.PING, METHOD.LOGGING_SET_LEVEL, METHOD.RESOURCES_SUBSCRIBE, METHOD.RESOURCES_UNSUBSCRIBE]);

/** `-32022`: the request names a revision this server does not serve. */
export class UnsupportedProtocolVersionError extends McpError {
  constructor(requested: string) {
    super(-32022, 'Unsupported protocol version', { supported: [...MODERN_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS], requested: clip(requested) });
  }
}

/** True when a request claims the modern era (its `_meta` names a protocol version). */
export function hasModernClaim(params: unknown): boolean {
  return isObject(params) && isObject(params._meta) && META.PROTOCOL_VERSION in params._meta;
}

/** What a modern request says about its client, or the error that answers it. */
export function readModernRequest(method: string, params: Record<string, unknown>): ModernRequest {
  const meta = (isObject(params._meta) ? params._meta : {}) as Record<string, unknown>;
  const version = meta[META.PROTOCOL_VERSION];
  const capabilities = meta[META.CLIENT_CAPABILITIES];
  if (typeof version !== 'string' || !isObject(capabilities)) {
    throw new InvalidParamsError(`A ${MODERN_PROTOCOL_VERSIONS[0]} request needs _meta["${META.PROTOCOL_VERSION}"] and _meta["${META.CLIENT_CAPABILITIES}"]`);
  }
  if (!MODERN.has(version)) throw new UnsupportedProtocolVersionError(version);
  const level = meta[META.LOG_LEVEL];
  if (level !== undefined && !isLogLevel(level)) throw new InvalidParamsError(`Invalid log level: ${clipJson(level)}`);
  if (REMOVED.has(method)) throw new McpError(-32601, `Method not found: ${method} (removed in ${version})`);
  const info = meta[META.CLIENT_INFO];
  return {
    client: { protocolVersion: version, capabilities: capabilities as ClientCapabilities, info: isObject(info) ? (info as unknown as Implementation) : undefined },
    logLevel: level as LogLevel | undefined,
    answers: NO_ANSWERS,
  };
}

/** A 2026-07-28 request as the dispatcher serves it: its client, log level and the MRTR answers so far. */
export interface ModernRequest {
  client: ClientInfo;
  logLevel: LogLevel | undefined;
  answers: Record<string, unknown>;
}

const NO_ANSWERS: Record<string, unknown> = Object.freeze({});

/** `server/discover`: versions, capabilities and instructions, for clients that ask first. */
export function discoverResult(app: McpApp): Record<string, unknown> {
  const { logging: _logging, ...capabilities } = app.capabilities;
  const result: Record<string, unknown> = { supportedVersions: [...MODERN_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS], capabilities };
  if (app.instructions !== undefined) result.instructions = app.instructions;
  return result;
}

/** The `_meta` of a modern result that has none of its own: one frozen object per app. */
export function serverInfoMeta(serverInfo: Implementation): Readonly<Record<string, unknown>> {
  return Object.freeze({ [META.SERVER_INFO]: serverInfo });
}

/**
 * A result as 2026-07-28 has it: `resultType`, the cache hint of cacheable methods, server info
 * in `_meta` (`infoMeta`, shared, unless the result brings its own `_meta`).
 */
export function shapeModernResult(result: Record<string, unknown>, infoMeta: Readonly<Record<string, unknown>>, cache: WireCacheHint | undefined): Record<string, unknown> {
  const own = result._meta;
  const shaped: Record<string, unknown> = { ...result, resultType: 'complete', _meta: isObject(own) ? { ...own, ...infoMeta } : infoMeta };
  if (cache) {
    shaped.ttlMs = cache.ttlMs;
    shaped.cacheScope = cache.cacheScope;
  }
  return shaped;
}

/** `-32020`: an HTTP header disagrees with the body, or a required one is missing (2026-07-28). */
export class HeaderMismatchError extends McpError {
  constructor(message: string) {
    super(-32020, message);
  }

  /** A header whose value differs from the body's; both values quoted, clipped (client input). */
  static mismatch(header: string, sent: unknown, body: unknown): HeaderMismatchError {
    return new HeaderMismatchError(`Header mismatch: ${header} header value '${clip(String(sent))}' does not match body value '${clip(String(body))}'`);
  }
}

/**
 * `-32021`: serving the request needs a client capability this request did not declare.
 * `required` is the `ClientCapabilities` shape to declare when it is nested (`elicitation.url`).
 */
export class MissingRequiredClientCapabilityError extends McpError {
  constructor(capability: string, required: Record<string, unknown> = { [capability]: {} }) {
    super(-32021, `Missing required client capability: ${capability}`, { requiredCapabilities: required });
  }
}

/** The only methods whose results may be input-required (MRTR, protocol.md §7.2). */
export const MRTR_METHODS: ReadonlySet<string> = new Set([METHOD.TOOLS_CALL, METHOD.PROMPTS_GET, METHOD.RESOURCES_READ]);

/** An input-required result: the questions by key, and the state to echo on the retry. */
export function inputRequiredResult(missing: Record<string, { method: string; params: Record<string, unknown> }>, requestState: string, infoMeta: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return { resultType: 'input_required', inputRequests: missing, requestState, _meta: infoMeta };
}

export const SUBSCRIPTIONS_LISTEN = 'subscriptions/listen';
export const SUBSCRIPTIONS_ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';
export const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** The part of a listen filter this server can honour: what its capabilities declare. */
export function honouredFilter(filter: unknown, capabilities: ServerCapabilities): Record<string, unknown> {
  const asked = isObject(filter) ? filter : {};
  const honoured: Record<string, unknown> = {};
  if (asked.toolsListChanged === true && capabilities.tools?.listChanged) honoured.toolsListChanged = true;
  if (asked.promptsListChanged === true && capabilities.prompts?.listChanged) honoured.promptsListChanged = true;
  if (asked.resourcesListChanged === true && capabilities.resources?.listChanged) honoured.resourcesListChanged = true;
  if (Array.isArray(asked.resourceSubscriptions) && capabilities.resources?.subscribe) {
    honoured.resourceSubscriptions = asked.resourceSubscriptions.filter((uri): uri is string => typeof uri === 'string');
  }
  return honoured;
}
