import { createColors } from 'picocolors';
import { CliError, EXIT } from './cli-error';

// Colours only on a terminal (picocolors alone also turns them on whenever CI is set); NO_COLOR
// and FORCE_COLOR are honoured.
function colorsFor(stream: NodeJS.WriteStream): ReturnType<typeof createColors> {
  const enabled = !('NO_COLOR' in process.env) && ('FORCE_COLOR' in process.env || (stream.isTTY === true && process.env.TERM !== 'dumb'));
  return createColors(enabled);
}

/** Colours for what goes to stdout. */
export const pc = colorsFor(process.stdout);
/** Colours for what goes to stderr. */
export const pcErr = colorsFor(process.stderr);

/** Writes one line to stdout. */
export function out(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** Writes one line to stderr. */
export function err(text: string): void {
  process.stderr.write(`${text}\n`);
}

/** A definition error from any installed copy of @mcpkit/core (recognised by shape, not class). */
export function isDefinitionError(error: unknown): error is Error & { code: string; problem: string; fixes: string[] } {
  return error instanceof Error && error.name === 'DefinitionError' && typeof (error as { code?: unknown }).code === 'string';
}

/** Prints an error as one clear line plus hints, and returns the exit code to use. */
export function report(error: unknown): number {
  if (error instanceof CliError) {
    err(`${pcErr.red('error')} ${error.message}`);
    if (error.hint) err(`${pcErr.dim('hint')}  ${error.hint}`);
    return error.exitCode;
  }
  if (isDefinitionError(error)) {
    err(`${pcErr.red('error')} ${pcErr.bold(error.code)} ${error.problem}`);
    for (const fix of error.fixes) err(`${pcErr.dim('hint')}  ${fix}`);
    return EXIT.FAILURE;
  }
  err(`${pcErr.red('error')} ${(error as Error)?.message ?? String(error)}`);
  return EXIT.FAILURE;
}
