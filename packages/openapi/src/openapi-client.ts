import type { CallToolResult, RequestContext } from '@mcpkit/core';
import { applyAuth, type OpenApiAuth } from './auth';
import { buildRequest } from './build-request';
import { CallSlots } from './call-slots';
import { fetchSameOrigin, RedirectRefused } from './follow-redirects';
import type { OperationRequest } from './operation';
import { readBounded, TOO_LARGE } from './read-bounded';

/** How calls reach the API. */
export interface OpenApiClientOptions {
  /** Where the API is: the operations' paths are appended to it (`https://api.example.com/v3`). */
  baseUrl: string;
  /** Headers sent with every call (a user agent, a fixed API version). */
  headers?: Record<string, string>;
  /** How calls authenticate (see `OpenApiAuth`); default none. */
  auth?: OpenApiAuth;
  /** The `fetch` to call with; default the global one. Tests and proxies inject their own. */
  fetch?: typeof fetch;
  /** How long one call may take, answer read included, before it ends as an error result. Default 30 000. */
  timeoutMs?: number;
  /** The largest answer read, in bytes; a larger one is not read and ends as an error result. Default 4 MiB. */
  maxResponseBytes?: number;
  /**
   * How many calls to the API run at once; the others wait (within `timeoutMs`). Bounds the
   * memory answers hold to `maxConcurrentCalls × maxResponseBytes`. Default 64.
   */
  maxConcurrentCalls?: number;
}

/** Calls operations of one API. */
export interface OpenApiClient {
  /**
   * Calls the operation with the tool's validated arguments and answers as a tool does: a 2xx
   * answer as its content (its JSON as `structuredContent` when the operation declares a JSON
   * schema), anything else as an `isError` result. Never throws but when `ctx.signal` aborts.
   */
  call(operation: OperationRequest, args: Record<string, unknown>, ctx: RequestContext): Promise<CallToolResult>;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_CONCURRENT_CALLS = 64;
// The longest delay a Node timer takes (AbortSignal.timeout throws past it).
const MAX_TIMER_MS = 2 ** 32 - 1;
// What of an error answer's body the model reads: enough for any problem details, never a page of HTML.
const MAX_ERROR_TEXT = 4096;

function failure(...texts: string[]): CallToolResult {
  return { isError: true, content: texts.map((text) => ({ type: 'text' as const, text })) };
}

function mediaTypeOf(response: Response): string {
  return (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

const isJson = (type: string) => type === 'application/json' || /^application\/[^/]+\+json$/.test(type);

function cut(text: string): string {
  return text.length > MAX_ERROR_TEXT ? `${text.slice(0, MAX_ERROR_TEXT)}… (${text.length - MAX_ERROR_TEXT} more characters)` : text;
}

/** A non-2xx answer: its status, and its problem details (RFC 9457) or the start of its body. */
function errorResult(operation: OperationRequest, response: Response, bytes: Uint8Array): CallToolResult {
  const status = `The API answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''} to ${operation.method} ${operation.path}.`;
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === '') return failure(status);
  const type = mediaTypeOf(response);
  if (isJson(type)) {
    try {
      const parsed: unknown = JSON.parse(text);
      const label = type === 'application/problem+json' ? 'Problem details' : 'Body';
      return failure(status, `${label}: ${cut(JSON.stringify(parsed))}`);
    } catch {
      // Not JSON after all: shown as text below.
    }
  }
  return failure(status, `Body (${type || 'no content type'}): ${cut(text)}`);
}

/** A 2xx answer as the tool's result. */
function successResult(operation: OperationRequest, response: Response, bytes: Uint8Array): CallToolResult {
  const type = mediaTypeOf(response);
  const text = new TextDecoder().decode(bytes);
  if (operation.structured) {
    if (bytes.byteLength === 0) return { structuredContent: {}, content: [{ type: 'text', text: `${response.status} (no body)` }] };
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return failure(
        `The API answered ${response.status} to ${operation.method} ${operation.path} with ${type || 'no content type'}, not the JSON it declares.`,
        cut(text),
      );
    }
    const structured = operation.wrapOutput ? { result: value } : (value as Record<string, unknown>);
    try {
      return { structuredContent: structured, content: [{ type: 'text', text: JSON.stringify(structured) }] };
    } catch {
      // JSON.parse reads any depth, JSON.stringify recurses: [[[…]]] 100 000 deep cannot be sent on.
      return failure(`The API answered ${response.status} to ${operation.method} ${operation.path} with JSON nested too deeply to be sent on.`);
    }
  }
  if (bytes.byteLength === 0) return { content: [{ type: 'text', text: `${response.status} (no body)` }] };
  if (type.startsWith('image/')) return { content: [{ type: 'image', data: Buffer.from(bytes).toString('base64'), mimeType: type }] };
  if (type === '' || isJson(type) || type.startsWith('text/') || /xml|javascript|yaml|csv/.test(type)) return { content: [{ type: 'text', text }] };
  return { content: [{ type: 'resource', resource: { uri: response.url || operation.path, mimeType: type, blob: Buffer.from(bytes).toString('base64') } }] };
}

/** The promise, or its signal's abort reason when that comes first. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Why fetch failed, in words: the system error code of the cause when there is one (ECONNREFUSED). */
function reason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * A client for one API: what the tools of `fromOpenApi` call, and what the classes `mcpkit
 * openapi` generates call.
 *
 * @example
 * const api = openApiClient({ baseUrl: 'https://petstore3.swagger.io/api/v3', auth: { apiKey: key, name: 'api_key' } });
 * const result = await api.call({ method: 'GET', path: '/pet/{petId}', parameters: [petId] }, { petId: 1 }, ctx);
 */
export function openApiClient(options: OpenApiClientOptions): OpenApiClient {
  const { baseUrl, headers = {}, auth } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const maxConcurrentCalls = options.maxConcurrentCalls ?? DEFAULT_MAX_CONCURRENT_CALLS;
  if (!/^https?:\/\//i.test(baseUrl)) throw new TypeError(`openApiClient: baseUrl must be an http(s) URL; got ${JSON.stringify(baseUrl)}.`);
  // Checked now: a NaN from an unset environment variable would make every call throw (timeoutMs)
  // or read answers without a bound (maxResponseBytes, as `total > NaN` is never true).
  for (const [name, value, most] of [
    ['timeoutMs', timeoutMs, MAX_TIMER_MS],
    ['maxResponseBytes', maxResponseBytes, Number.MAX_SAFE_INTEGER],
    ['maxConcurrentCalls', maxConcurrentCalls, Number.MAX_SAFE_INTEGER],
  ] as const) {
    if (!Number.isInteger(value) || value <= 0 || value > most) {
      throw new TypeError(`openApiClient: ${name} must be a whole number from 1 to ${most}; got ${String(value)}. Leave it out for the default.`);
    }
  }
  const slots = new CallSlots(maxConcurrentCalls);

  const send = async (operation: OperationRequest, args: Record<string, unknown>, ctx: RequestContext, timeout: AbortSignal, signal: AbortSignal) => {
    const doFetch = options.fetch ?? globalThis.fetch;
    let request;
    try {
      request = buildRequest(baseUrl, operation, args, headers);
      await untilAborted(applyAuth(auth, { method: operation.method, url: request.url, headers: request.headers, operation }, ctx), signal);
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      if (timeout.aborted) return failure(`The credentials for ${operation.method} ${operation.path} were not ready within ${timeoutMs} ms (timeoutMs).`);
      // A header value with a line break, say: the arguments passed the schema but cannot be sent.
      return failure(`The request to ${operation.method} ${operation.path} cannot be built: ${error instanceof Error ? error.message : String(error)}.`);
    }
    try {
      const response = await fetchSameOrigin(doFetch, operation.method, request, signal);
      const bytes = await readBounded(response, maxResponseBytes);
      if (bytes === TOO_LARGE) {
        return failure(
          `The API's answer to ${operation.method} ${operation.path} (${response.status}) is larger than ${maxResponseBytes} bytes (maxResponseBytes); it was not read.`,
        );
      }
      return response.ok ? successResult(operation, response, bytes) : errorResult(operation, response, bytes);
    } catch (error) {
      // The MCP request was cancelled: nothing is answered, as for any cancelled call.
      if (ctx.signal.aborted) throw error;
      if (error instanceof RedirectRefused) return failure(`The API's answer to ${operation.method} ${operation.path} was not read: ${error.message}.`);
      if (timeout.aborted) return failure(`The API did not answer ${operation.method} ${operation.path} within ${timeoutMs} ms (timeoutMs).`);
      // The API's address is for the operator's log, not the caller's: behind a gateway it is an
      // internal host the caller has no business learning (as a proxy's remote URL).
      const why = reason(error);
      ctx.logger?.warn({ api: request.url.origin, operation: `${operation.method} ${operation.path}`, reason: why }, 'the API could not be reached');
      return failure(`The API could not be reached for ${operation.method} ${operation.path}: ${why}.`);
    }
  };

  return {
    async call(operation, args, ctx) {
      // Started first: the wait for a slot and for the credentials count, as the answer does.
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = AbortSignal.any([ctx.signal, timeout]);
      try {
        await slots.acquire(signal);
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        return failure(
          `The API did not answer ${operation.method} ${operation.path} within ${timeoutMs} ms (timeoutMs): ${maxConcurrentCalls} calls to it were running all that time (maxConcurrentCalls).`,
        );
      }
      try {
        return await send(operation, args, ctx, timeout, signal);
      } finally {
        slots.release();
      }
    },
  };
}
