import { clipJson } from '../../errors/clip';
import { InvalidParamsError, MethodNotFoundError, UnsupportedProtocolVersionError } from '../../errors/mcp-error';
import { isLogLevel, type LogLevel } from '../../logging/log-levels';
import { isObject } from '../../protocol/json-rpc';
import type { ClientCapabilities, Implementation } from '../../protocol/mcp-types';
import { METHOD } from '../../protocol/methods';
import { MODERN_PROTOCOL_VERSIONS } from '../../protocol/protocol-versions';
import type { ClientInfo } from '../../model/client-info';
import { META } from './meta';

const MODERN: ReadonlySet<string> = new Set(MODERN_PROTOCOL_VERSIONS);
// Gone in the stateless revision: unknown methods under a modern claim, even on a dual-era server.
const REMOVED: ReadonlySet<string> = new Set([
  METHOD.INITIALIZE,
  METHOD.PING,
  METHOD.LOGGING_SET_LEVEL,
  METHOD.RESOURCES_SUBSCRIBE,
  METHOD.RESOURCES_UNSUBSCRIBE,
  // The tasks extension inlines results on tasks/get and has no list (SEP-2663).
  METHOD.TASKS_RESULT,
  METHOD.TASKS_LIST,
]);

/** True when a request claims the modern era (its `_meta` names a protocol version). */
export function hasModernClaim(params: unknown): boolean {
  return isObject(params) && isObject(params._meta) && META.PROTOCOL_VERSION in params._meta;
}

/** A modern request as the dispatcher serves it: its client, log level and the MRTR answers so far. */
export interface ModernRequest {
  client: ClientInfo;
  logLevel: LogLevel | undefined;
  answers: Record<string, unknown>;
  /** The input-required exchange a retry continues (its verified `requestState`); undefined on a first round. */
  exchange: string | undefined;
}

const NO_ANSWERS: Record<string, unknown> = Object.freeze({});

/** What a modern request says about its client (from its `_meta`), or the error that answers it. */
export function readModernRequest(method: string, meta: Readonly<Record<string, unknown>> | undefined): ModernRequest {
  const own = meta ?? NO_ANSWERS;
  const version = own[META.PROTOCOL_VERSION];
  const capabilities = own[META.CLIENT_CAPABILITIES];
  if (typeof version !== 'string' || !isObject(capabilities)) {
    throw new InvalidParamsError(`A ${MODERN_PROTOCOL_VERSIONS[0]} request needs _meta["${META.PROTOCOL_VERSION}"] and _meta["${META.CLIENT_CAPABILITIES}"]`);
  }
  if (!MODERN.has(version)) throw new UnsupportedProtocolVersionError(version);
  const level = own[META.LOG_LEVEL];
  if (level !== undefined && !isLogLevel(level)) throw new InvalidParamsError(`Invalid log level: ${clipJson(level)}`);
  if (REMOVED.has(method)) throw new MethodNotFoundError(method, `removed in ${version}`);
  const info = own[META.CLIENT_INFO];
  return {
    client: {
      protocolVersion: version,
      capabilities: capabilities as ClientCapabilities,
      info: isObject(info) ? (info as unknown as Implementation) : undefined,
    },
    logLevel: level as LogLevel | undefined,
    answers: NO_ANSWERS,
    exchange: undefined,
  };
}
