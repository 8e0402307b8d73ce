import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '@mcpkit/core';
import { FAULTS, faultResult, type Fault } from './transport-faults';

// Node's parser errors by code; any other is HTTP it could not read.
const PARSER_FAULTS: ReadonlyMap<string, () => Fault> = new Map([
  ['ERR_HTTP_REQUEST_TIMEOUT', FAULTS.requestTimeout],
  ['HPE_HEADER_OVERFLOW', FAULTS.headersTooLarge],
]);

/**
 * Answers what Node's HTTP parser refuses before any route sees it (a request that took too
 * long, headers too large, malformed HTTP) like every other MCP error, with a JSON-RPC body, then
 * closes the connection: for `node:http`'s `clientError` event (Fastify's `clientErrorHandler`).
 *
 * @example
 * server.on('clientError', (error, socket) => answerClientError(error, socket, app.logger));
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex, logger: Logger): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  logger.debug({ err: error }, 'HTTP client error');
  const { status, body = '' } = faultResult((PARSER_FAULTS.get(error.code ?? '') ?? FAULTS.malformedRequest)());
  // Written by hand: no response object exists for a request Node could not parse.
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy();
}
