import pc from 'picocolors';
import { CliError, EXIT } from './cli-error';

/** Writes one line to stdout. */
export function out(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** Writes one line to stderr. */
export function err(text: string): void {
  process.stderr.write(`${text}\n`);
}

/** A definition error from any installed copy of @mcpkit/core (recognised by shape, not class). */
function isDefinitionError(error: unknown): error is Error & { code: string; problem: string; fixes: string[] } {
  return error instanceof Error && error.name === 'DefinitionError' && typeof (error as { code?: unknown }).code === 'string';
}

/** Prints an error as one clear line plus hints, and returns the exit code to use. */
export function report(error: unknown): number {
  if (error instanceof CliError) {
    err(`${pc.red('error')} ${error.message}`);
    if (error.hint) err(`${pc.dim('hint')}  ${error.hint}`);
    return error.exitCode;
  }
  if (isDefinitionError(error)) {
    err(`${pc.red('error')} ${pc.bold(error.code)} ${error.problem}`);
    for (const fix of error.fixes) err(`${pc.dim('hint')}  ${fix}`);
    return EXIT.FAILURE;
  }
  err(`${pc.red('error')} ${(error as Error)?.message ?? String(error)}`);
  return EXIT.FAILURE;
}
