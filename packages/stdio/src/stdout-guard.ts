type Write = typeof process.stdout.write;

/**
 * Keeps stdout for protocol frames only: anything else written through `process.stdout.write`
 * (a stray `console.log`, a chatty dependency) goes to stderr instead. Returns the real writer
 * and a function that undoes the redirection.
 */
export function guardStdout(): { write: (text: string, done?: () => void) => boolean; restore: () => void } {
  const stdout = process.stdout;
  const original: Write = stdout.write;
  const write = (text: string, done?: () => void): boolean => original.call(stdout, text, done as never);
  stdout.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) =>
    process.stderr.write(chunk as string, encoding as never, callback as never)) as Write;
  return {
    write,
    restore: () => {
      stdout.write = original;
    },
  };
}
