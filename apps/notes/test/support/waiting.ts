/** Resolves once `ready()` holds, checking every 20 ms; throws naming `what` after `timeoutMs`. */
export async function waitFor(what: string, ready: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The text of a tool result's first content block ('' when it has none). */
export function text(result: unknown): string {
  return ((result as { content: Array<{ text: string }> }).content[0] ?? { text: '' }).text;
}
