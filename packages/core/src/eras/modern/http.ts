// The 2026-07-28 rules of Streamable HTTP (transports, "Request Headers"; protocol.md §4.4): which
// version header routes a POST to this era, how its headers are decoded and checked against the
// body, and which HTTP status a JSON-RPC answer gets. Pure functions: the HTTP core asks, and
// never decides an era rule itself.
import { ErrorCode } from '../../errors/error-codes';
import { HeaderMismatchError, InvalidRequestError, type McpError } from '../../errors/mcp-error';
import type { JsonRpcResponse } from '../../protocol/json-rpc';
import { isObject } from '../../protocol/json-rpc';
import { MODERN_PROTOCOL_VERSIONS } from '../../protocol/protocol-versions';
import type { HeaderParam } from '../../scanner/header-params';
import type { Frame, MessageBody } from '../../wire/frame';
import type { HeaderValues } from '../../wire/header-values';
import { META } from './meta';

const MODERN: ReadonlySet<string> = new Set(MODERN_PROTOCOL_VERSIONS);

/** True for a 2026-07-28 `MCP-Protocol-Version`. */
export function isModernVersion(version: string | undefined): boolean {
  return version !== undefined && MODERN.has(version);
}

const SENTINEL = /^=\?base64\?(.*)\?=$/s;
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const VISIBLE_ASCII = /^[\x20-\x7e]*$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** One header's value: the first when repeated, trimmed; undefined when absent or empty. */
function firstValue(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  const trimmed = first?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * A 2026-07-28 header value as the spec sends it: trimmed, visible ASCII, or a well-formed
 * `=?base64?…?=` of UTF-8, decoded. Anything else is -32020 naming the header.
 */
export function decodeHeader(name: string, value: string | string[] | undefined): string | undefined {
  const raw = firstValue(value);
  if (raw === undefined) return undefined;
  if (!VISIBLE_ASCII.test(raw)) throw new HeaderMismatchError(`Invalid characters in ${name} header`);
  const encoded = SENTINEL.exec(raw);
  if (!encoded) return raw;
  if (!STRICT_BASE64.test(encoded[1])) throw new HeaderMismatchError(`Invalid Base64 in ${name} header`);
  try {
    return UTF8.decode(Buffer.from(encoded[1], 'base64'));
  } catch {
    throw new HeaderMismatchError(`Invalid UTF-8 in ${name} header`);
  }
}

/** `MCP-Protocol-Version` for routing: decoded when well-formed, else as sent (an unknown version then). */
export function protocolVersionHeader(headers: HeaderValues): string | undefined {
  try {
    return decodeHeader('MCP-Protocol-Version', headers['mcp-protocol-version']);
  } catch {
    return firstValue(headers['mcp-protocol-version']);
  }
}

/**
 * The headers of a 2026-07-28 POST must agree with its body (transports, "Request Headers"):
 * `MCP-Protocol-Version`, `Mcp-Method`, and `Mcp-Name` for calls, prompts and reads. Throws
 * `HeaderMismatchError` (-32020) naming the first disagreement. The `Mcp-Param-*` of a tool's
 * arguments are checked later (`checkArgumentHeaders`), once the caller may see the tool: they
 * depend on its definition, which a hidden tool must not show.
 */
export function checkModernHeaders(headers: HeaderValues, frame: Frame): void {
  const version = decodeHeader('MCP-Protocol-Version', headers['mcp-protocol-version']);
  const bodyVersion = frame.meta?.[META.PROTOCOL_VERSION];
  if (version === undefined) throw new HeaderMismatchError('Missing MCP-Protocol-Version header');
  if (typeof bodyVersion === 'string' && bodyVersion !== version) {
    throw HeaderMismatchError.mismatch('MCP-Protocol-Version', version, bodyVersion);
  }
  const method = decodeHeader('Mcp-Method', headers['mcp-method']);
  if (method === undefined) throw new HeaderMismatchError('Missing Mcp-Method header');
  if (method !== frame.method) throw HeaderMismatchError.mismatch('Mcp-Method', method, frame.method);
  // The target the frame read once: a tool or prompt name, a resource URI.
  const named = frame.target;
  // A name that is not a string is the body's own mistake: the method answers it (-32602), no header can match it.
  if (typeof named === 'string') {
    const name = decodeHeader('Mcp-Name', headers['mcp-name']);
    if (name === undefined) throw new HeaderMismatchError('Missing Mcp-Name header');
    if (name !== named) throw HeaderMismatchError.mismatch('Mcp-Name', name, named);
  }
}

/**
 * The `Mcp-Param-*` headers of a 2026-07-28 `tools/call` must mirror the arguments its tool marks
 * with `x-mcp-header`: present whenever the body has a value (absent or null values send none),
 * well-formed, and equal (integers compared as numbers). Throws `HeaderMismatchError` (-32020).
 */
export function checkArgumentHeaders(headers: HeaderValues, args: unknown, params: readonly HeaderParam[]): void {
  for (const param of params) {
    let value: unknown = args;
    for (const key of param.path) value = isObject(value) ? value[key] : undefined;
    if (value === undefined || value === null) continue;
    const sent = headers[`mcp-param-${param.header.toLowerCase()}`];
    if (sent === undefined) throw new HeaderMismatchError(`Missing Mcp-Param-${param.header} header for argument ${param.path.join('.')}`);
    const decoded = decodeHeader(`Mcp-Param-${param.header}`, sent) ?? '';
    const matches =
      param.type === 'boolean'
        ? decoded === String(value)
        : param.type === 'integer'
          ? /^-?\d+$/.test(decoded) && Number(decoded) === value
          : decoded === value;
    if (!matches) {
      throw HeaderMismatchError.mismatch(`Mcp-Param-${param.header}`, decoded, value);
    }
  }
}

// 2026-07-28 status table (protocol.md §4.4): malformed or mismatched requests are 400, an
// unknown method 404, every other answer (errors included) 200.
const MODERN_BAD_REQUEST: ReadonlySet<number> = new Set([
  ErrorCode.ParseError,
  ErrorCode.InvalidRequest,
  ErrorCode.InvalidParams,
  ErrorCode.HeaderMismatch,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.UnsupportedProtocolVersion,
]);

/**
 * The HTTP status of a 2026-07-28 answer.
 *
 * @example
 * modernHttpStatus({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } }); // 404
 */
export function modernHttpStatus(answer: JsonRpcResponse | readonly JsonRpcResponse[]): number {
  if (Array.isArray(answer) || !('error' in answer)) return 200;
  const code = (answer as { error: { code: number } }).error.code;
  return code === ErrorCode.MethodNotFound ? 404 : MODERN_BAD_REQUEST.has(code) ? 400 : 200;
}

/**
 * The modern era's (2026-07-28) Streamable HTTP rules, as the HTTP core asks them (the same shape as
 * `legacyHttp`): a POST of this era names it in `MCP-Protocol-Version` or in its `_meta`,
 * carries one message whose headers agree with its body, belongs to no session (GET and DELETE
 * do not exist), and streams only once it has something to stream, so that its errors keep the
 * statuses of its table.
 */
export const modernHttp = Object.freeze({
  claims: (version: string | undefined, body?: MessageBody): boolean =>
    isModernVersion(version) || (body !== undefined && !Array.isArray(body) && (body as Frame).era === 'modern'),
  sessions: false,
  streamsUpFront: false,
  /** What the dispatcher is told with each message: serve it as this era even without a `_meta` claim. */
  receive: Object.freeze({ era: 'modern' as const }),
  admit(headers: HeaderValues, body: MessageBody): McpError | undefined {
    if (Array.isArray(body)) return new InvalidRequestError('A 2026-07-28 POST carries one JSON-RPC message (no batches)');
    const frame = body as Frame;
    if (frame.kind !== 'request') return undefined;
    try {
      checkModernHeaders(headers, frame);
      return undefined;
    } catch (error) {
      return error as McpError;
    }
  },
  status: modernHttpStatus,
  versions: MODERN_PROTOCOL_VERSIONS as readonly string[],
  servesVersion: isModernVersion,
});
