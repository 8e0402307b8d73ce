import { HIDDEN } from './fuzz-app';

const HIDDEN_NAMES: readonly string[] = [
  ...Object.values(HIDDEN),
  'zz_secret_doc',
  'zz_secret_entry',
  'zz_secret_completion',
  // The hidden header's name, as the tool publishes it and as its header is spelled.
  'ZzSecretRegion',
  'Mcp-Param-ZzSecretRegion',
  'secret://zz/',
];

// What no answer may carry, whatever was asked: the message of an unexpected error, a stack.
const INTERNALS = ['internal detail that must not leak', '    at ', 'node_modules', '.ts:'];

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Why `message` is not a well-formed JSON-RPC message from a server, or undefined when it is. */
export function malformed(message: unknown): string | undefined {
  if (!isObject(message)) return 'not an object';
  if (message.jsonrpc !== '2.0') return 'jsonrpc is not "2.0"';
  if ('method' in message) {
    if (typeof message.method !== 'string') return 'a method that is not a string';
    if ('params' in message && !isObject(message.params)) return 'params that are not an object';
    return undefined;
  }
  if (!('id' in message)) return 'neither a method nor an id';
  const { id } = message;
  if (!(id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)))) return `an id of the wrong type: ${JSON.stringify(id)}`;
  const hasResult = 'result' in message;
  const hasError = 'error' in message;
  if (hasResult === hasError) return 'not exactly one of result and error';
  if (hasResult && !isObject(message.result)) return 'a result that is not an object';
  if (hasError) {
    const { error } = message;
    if (!isObject(error)) return 'an error that is not an object';
    if (!Number.isInteger(error.code)) return 'an error code that is not an integer';
    if (typeof error.message !== 'string' || error.message === '') return 'an error without a message';
    // Client input never makes the server fail: an internal error is a bug it found.
    if (error.code === -32603) return `an internal error (${error.message})`;
  }
  return undefined;
}

/** The responses (not notifications, not server requests) among `messages`, by the JSON of their id. */
export function responsesById(messages: readonly unknown[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const message of messages) {
    if (!isObject(message) || 'method' in message || !('id' in message)) continue;
    const key = JSON.stringify(message.id);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Hidden names in `answer` that the request did not write itself. */
export function leakedNames(request: string, answer: string): string[] {
  return HIDDEN_NAMES.filter((name) => answer.includes(name) && !request.includes(name));
}

/** Internals in `answer`: an unexpected error's message, a stack frame, a source path. */
export function leakedInternals(answer: string): string[] {
  return INTERNALS.filter((needle) => answer.includes(needle));
}

/**
 * Every request id answered exactly once, and nothing answered that was not asked; answers with
 * a null id are refusals of a message whose id could not be read (one per bad batch entry), or
 * of the whole exchange (then the only answer).
 */
export function answeredOnce(requestIds: ReadonlyArray<string | number>, messages: readonly unknown[]): string | undefined {
  const counts = responsesById(messages);
  const nulls = counts.get('null') ?? 0;
  counts.delete('null');
  if (nulls === 1 && counts.size === 0 && messages.length === 1) return undefined;
  for (const id of requestIds) {
    const key = JSON.stringify(id);
    const count = counts.get(key) ?? 0;
    if (count !== 1) return `request ${key} answered ${count} times`;
    counts.delete(key);
  }
  if (counts.size > 0) return `answers to ids nobody asked: ${[...counts.keys()].join(', ')}`;
  return undefined;
}
