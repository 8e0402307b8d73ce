/** The list each result of the remote must carry, by method: a result without it is refused, not passed on. */
const LISTS = { tool: 'content', prompt: 'messages', resource: 'contents' } as const;

/**
 * Why a result the remote answered is not one the gateway may pass on (its list missing, or not
 * a list of objects), or undefined when it is. The remote's answer is otherwise its own: core
 * checks the content blocks of a tool's result before they leave.
 */
export function shapeProblem(kind: keyof typeof LISTS, result: unknown): string | undefined {
  const field = LISTS[kind];
  const list = (result as Record<string, unknown>)[field];
  if (!Array.isArray(list)) return `its ${field} is not a list`;
  if (!list.every((entry) => typeof entry === 'object' && entry !== null && !Array.isArray(entry))) return `its ${field} holds something that is not an object`;
  return undefined;
}
