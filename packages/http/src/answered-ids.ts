/**
 * The ids a stored SSE event's JSON text answers: those of the JSON-RPC responses in it (one, or
 * a batch's). Empty for a notification or a request; undefined when the text is not JSON. What
 * tells a POST stream's last event from the others, wherever the stream is read.
 *
 * @example
 * answeredIds('{"jsonrpc":"2.0","id":7,"result":{}}'); // { ids: [7], batch: false }
 */
export function answeredIds(data: string): { ids: unknown[]; batch: boolean } | undefined {
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return undefined;
  }
  const batch = Array.isArray(message);
  const ids: unknown[] = [];
  for (const value of batch ? (message as unknown[]) : [message]) {
    if (typeof value === 'object' && value !== null && 'id' in value && !('method' in value) && ('result' in value || 'error' in value)) {
      ids.push((value as { id: unknown }).id);
    }
  }
  return { ids, batch };
}
