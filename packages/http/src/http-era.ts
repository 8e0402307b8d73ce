import { type JsonRpcResponse, type McpError } from '@mcpkit/core';
import { HTTP_ERAS, protocolVersionHeader, type MessageBody, type ReceiveOptions } from '@mcpkit/core/transport';
import type { HttpHeaders } from './http-result';

/**
 * What the HTTP core asks a protocol era about one request; core's `eras/<era>/http.ts` answer.
 * The core never names an era: it asks the first that claims the request.
 */
export interface HttpEra {
  /** Whether a request with this `MCP-Protocol-Version` (and body, when there is one) is of this era. */
  claims(version: string | undefined, body?: MessageBody): boolean;
  /** Whether its requests belong to sessions (and GET and DELETE exist). */
  readonly sessions: boolean;
  /** Whether `responseMode: 'sse'` may open the stream before the handler sends anything. */
  readonly streamsUpFront: boolean;
  /** What the dispatcher is told with each of its messages. */
  readonly receive: Readonly<ReceiveOptions>;
  /** The error that refuses a POST before it runs (its headers against its body …), else undefined. */
  admit(headers: HttpHeaders, body: MessageBody): McpError | undefined;
  /** The HTTP status of a JSON answer. */
  status(answer: JsonRpcResponse | readonly JsonRpcResponse[]): number;
  /** The versions its `MCP-Protocol-Version` may name. */
  readonly versions: readonly string[];
  servesVersion(version: string | undefined): boolean;
}

/** The eras in the order they claim a request: the first that claims it serves it. */
const ERAS: readonly HttpEra[] = HTTP_ERAS;

/** The era of a request, by its `MCP-Protocol-Version` and, for a POST, its body. */
export function eraOf(version: string | undefined, body?: MessageBody): HttpEra {
  // A loop, not `find`: no closure on every request.
  for (const era of ERAS) if (era.claims(version, body)) return era;
  // The last era claims whatever the others leave (core's table ends with it).
  return ERAS[ERAS.length - 1];
}

// A client sends the same MCP-Protocol-Version with every request: its decoding (two regular
// expressions) is kept for the last header seen.
let lastVersionHeader: string | undefined;
let lastVersion: string | undefined;

/** `protocolVersionHeader` of a request's headers, decoded once per client rather than per request. */
export function versionOf(headers: HttpHeaders): string | undefined {
  const header = headers['mcp-protocol-version'];
  if (typeof header !== 'string') return protocolVersionHeader(headers);
  if (header !== lastVersionHeader) {
    lastVersion = protocolVersionHeader(headers);
    lastVersionHeader = header;
  }
  return lastVersion;
}
