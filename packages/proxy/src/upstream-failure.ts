import { ClientErrorCode } from '@mcpkit/client';

/**
 * What the gateway's caller is told when the client itself failed a remote call (a closed
 * connection, a timeout, an unreadable answer …): one fixed sentence per code. The client's own
 * message names the remote's URL (with its query and credentials), its command line or its
 * stderr: that goes to `onError`, for the operator, never to the caller.
 */
const SAID: Record<number, string> = {
  [ClientErrorCode.ConnectionClosed]: 'the connection to the upstream server closed',
  [ClientErrorCode.RequestTimeout]: 'the upstream server did not answer in time',
  [ClientErrorCode.RequestCancelled]: 'the call to the upstream server was cancelled',
  [ClientErrorCode.TooManyPendingRequests]: 'the upstream server has too many calls waiting',
  [ClientErrorCode.InvalidResponse]: 'the upstream server sent something that is not a readable answer',
  [ClientErrorCode.MessageTooLarge]: 'the call is too large to send to the upstream server',
  [ClientErrorCode.UnsupportedProtocolVersion]: 'the upstream server speaks no protocol revision the proxy does',
  [ClientErrorCode.TooManyInputRounds]: 'the upstream server asked for input too many times',
};

/** The caller's sentence for a client-detected failure (`code` in the client's range). */
export function upstreamFailure(code: number, data: unknown): string {
  if (code === ClientErrorCode.HttpStatus) {
    const status = (data as { status?: unknown } | undefined)?.status;
    return typeof status === 'number' ? `the upstream server answered HTTP ${status}` : 'the upstream server answered an HTTP error';
  }
  return SAID[code] ?? 'the upstream server could not be reached';
}
