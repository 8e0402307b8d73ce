import { ErrorCode } from '../errors/error-codes';

/**
 * The request line's `outcome` for an answer, when nothing more particular was recorded: `ok`,
 * `tool_error` (a result with `isError`), `denied` (`-31001`), `invalid` (`-32602`), or
 * `error <code>` for any other error answer. The span of the request carries the same word.
 */
export function answerOutcome(code: number | undefined, isError: boolean): string {
  if (code === undefined) return isError ? 'tool_error' : 'ok';
  return code === ErrorCode.AccessDenied ? 'denied' : code === ErrorCode.InvalidParams ? 'invalid' : `error ${code}`;
}
