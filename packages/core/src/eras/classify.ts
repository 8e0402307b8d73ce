import { InvalidParamsError, InvalidRequestError, type McpError } from '../errors/mcp-error';
import { isObject, isRequestId, type RequestId } from '../protocol/json-rpc';
import { METHOD } from '../protocol/methods';
import type { EraName, Frame } from '../wire/frame';
import { eraName, type DeprecatedEraName } from './era-name';
import { hasModernClaim } from './modern/read-request';

const EMPTY: Readonly<Record<string, unknown>> = Object.freeze({});

function invalid(id: RequestId | null, problem: McpError, era: EraName, method = ''): Frame {
  return { kind: 'invalid', id, method, params: EMPTY, meta: undefined, era, target: undefined, response: undefined, problem };
}

/** The method of a malformed message that still asked for an answer (a string method and an id), else ''. */
function askedMethod(message: Record<string, unknown>): string {
  return typeof message.method === 'string' && message.id !== undefined && message.id !== null ? message.method : '';
}

function readableId(message: Record<string, unknown>): RequestId | null {
  return isRequestId(message.id) ? message.id : null;
}

function targetOf(method: string, params: Readonly<Record<string, unknown>>): unknown {
  if (method === METHOD.TOOLS_CALL || method === METHOD.PROMPTS_GET) return params.name;
  if (method === METHOD.RESOURCES_READ) return params.uri;
  // SEP-2663: a task method names its task (Mcp-Name on HTTP).
  if (method === METHOD.TASKS_GET || method === METHOD.TASKS_UPDATE || method === METHOD.TASKS_CANCEL) return params.taskId;
  return undefined;
}

/**
 * Reads one parsed JSON-RPC message into a `Frame`: its kind, id, method, params, `_meta`, era
 * (`known`, when the transport already recognised it from a header; else a `_meta` protocol
 * version claims the modern era) and target. A malformed message becomes an invalid frame
 * carrying its answer.
 */
export function classify(message: unknown, known?: EraName | DeprecatedEraName, inBatch = false): Frame {
  const told = known === undefined ? undefined : eraName(known);
  if (!isObject(message)) return invalid(null, new InvalidRequestError('A JSON-RPC message must be an object'), told ?? 'legacy');
  // Era routing per message (protocol.md §3.3): a modern claim is served statelessly.
  const era: EraName = told ?? (hasModernClaim(message.params) ? 'modern' : 'legacy');
  if (message.jsonrpc !== '2.0') return invalid(readableId(message), new InvalidRequestError('jsonrpc must be "2.0"'), era, askedMethod(message));
  const { method, id } = message;
  if (typeof method !== 'string') {
    // A response: to one of our requests, or stale (dropped).
    if (id !== undefined && ('result' in message || 'error' in message)) {
      return {
        kind: 'response',
        id: readableId(message),
        method: '',
        params: EMPTY,
        meta: undefined,
        era: 'legacy',
        target: undefined,
        response: message,
        problem: undefined,
      };
    }
    return invalid(readableId(message), new InvalidRequestError('A JSON-RPC request needs a string method'), era);
  }
  const params = isObject(message.params) ? message.params : EMPTY;
  if (id === undefined)
    return { kind: 'notification', id: null, method, params, meta: undefined, era: 'legacy', target: undefined, response: undefined, problem: undefined };
  if (!isRequestId(id)) return invalid(null, new InvalidRequestError('A request id must be a string or a number (not null)'), era, askedMethod(message));
  if (message.params !== undefined && params === EMPTY) return invalid(id, new InvalidParamsError('params must be an object'), era, method);
  // The modern era has no batches, and a request hidden in one would skip its transport's header checks.
  if (inBatch && era === 'modern')
    return invalid(id, new InvalidRequestError('A 2026-07-28 request cannot be part of a JSON-RPC batch; send it on its own'), 'modern', method);
  const meta = isObject(params._meta) ? params._meta : undefined;
  return { kind: 'request', id, method, params, meta, era, target: targetOf(method, params), response: undefined, problem: undefined };
}
