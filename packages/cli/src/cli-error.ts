/** Exit codes of the mcpkit command, documented in docs/cli.md. */
export const EXIT = {
  OK: 0,
  /** The command ran and failed: a tool returned isError, a definition error, a failed call. */
  FAILURE: 1,
  /** The command line was wrong: unknown option, missing argument, an entry that is not an app. */
  USAGE: 2,
} as const;

/** An error the CLI prints as one line plus a hint, then exits with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
    readonly exitCode: number = EXIT.USAGE,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
