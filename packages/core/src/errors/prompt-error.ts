import { ErrorCode } from './error-codes';
import { McpError, type McpErrorOptions } from './mcp-error';

/**
 * A prompt failure whose message is meant for the client. Thrown from a prompt, it is answered
 * as a JSON-RPC error with exactly this message (code `-32603` unless `code` says otherwise, and
 * `data` if given); any other error is masked as `Internal error`.
 *
 * @example
 * @Prompt()
 * summarize(args: SummarizeArgs) {
 *   if (!documents.has(args.id)) throw new PromptError(`No document ${args.id}`, { code: ErrorCode.InvalidParams });
 * }
 */
export class PromptError extends McpError {
  constructor(message: string, options: McpErrorOptions = {}) {
    super(options.code ?? ErrorCode.InternalError, message, options.data, 'cause' in options ? { cause: options.cause } : undefined);
    this.name = 'PromptError';
  }
}
