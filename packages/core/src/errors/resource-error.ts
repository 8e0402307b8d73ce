import { ErrorCode } from './error-codes';
import { McpError, type McpErrorOptions } from './mcp-error';

/**
 * A resource failure whose message is meant for the client. Thrown from a resource reader, it is
 * answered as a JSON-RPC error with exactly this message (code `-32603` unless `code` says
 * otherwise, and `data` if given); any other error is masked as `Internal error`. For "no such
 * resource", return `undefined` instead.
 *
 * @example
 * @ResourceTemplate({ uriTemplate: 'reports://{id}' })
 * report({ id }: { id: string }) {
 *   if (!ready.has(id)) throw new ResourceError(`Report ${id} is still being generated; try again in a minute`, { data: { id } });
 * }
 */
export class ResourceError extends McpError {
  constructor(message: string, options: McpErrorOptions = {}) {
    super(options.code ?? ErrorCode.InternalError, message, options.data, 'cause' in options ? { cause: options.cause } : undefined);
    this.name = 'ResourceError';
  }
}
