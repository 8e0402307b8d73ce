import type { Logger, RequestId } from '@mcpkit/core';

/** How many abandoned requests get a line of their own; the rest are counted in one more. */
export const MAX_LISTED_ABANDONED = 20;

/**
 * Logs the requests a server abandons as it exits (their handlers never returned): one warn line
 * each with its `rpcId` and `method`, at most `max`, then one line saying how many more. Bounded,
 * so a flood of stuck requests cannot flood the log.
 */
export function logAbandoned(logger: Logger, requests: ReadonlyArray<{ id: RequestId; method: string; cancelled: boolean }>, max = MAX_LISTED_ABANDONED): void {
  const listed = Math.min(requests.length, max);
  for (let index = 0; index < listed; index++) {
    const { id, method, cancelled } = requests[index];
    logger.warn({ rpcId: id, method, cancelled }, 'request abandoned at shutdown: its handler had not returned');
  }
  if (requests.length > listed) {
    logger.warn({ more: requests.length - listed, abandoned: requests.length }, `${requests.length - listed} more requests abandoned at shutdown`);
  }
}
