import { CliError } from './cli-error';

/** What the server is started with: `--env K=V` (repeatable) and the arguments after `--`. */
export interface ServerInput {
  /** The server's environment additions, in the order given. */
  env: Record<string, string>;
  /** The server's own arguments: what `process.argv.slice(2)` is in the app module. */
  args: string[];
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Commander's collector for a repeatable `--env K=V`. */
export function collectEnv(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** `["K=V", …]` as an object; a pair without `=` or with a name no shell takes is a usage error. */
export function parseEnvPairs(pairs: readonly string[] = []): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const name = at < 0 ? pair : pair.slice(0, at);
    // __proto__ would be dropped without a word, here and in process.env: refused instead.
    if (at < 0 || !ENV_NAME.test(name) || name === '__proto__')
      throw new CliError(`--env takes NAME=value, not ${JSON.stringify(pair)}`, 'For example: --env NOTES_DB=/tmp/notes.db (repeat --env for more).');
    env[name] = pair.slice(at + 1);
  }
  return env;
}

/** The commands whose command line ends with `-- <server args…>`. */
export const SERVER_ARG_COMMANDS = ['start', 'dev', 'config', 'install'] as const;

/**
 * Splits `mcpkit <command> … -- <server args…>` at the first `--` after the command, for the
 * commands that start a server; any other command line is returned whole.
 */
export function splitServerArgs(argv: readonly string[]): { argv: string[]; serverArgs: string[] } {
  const command = argv[2];
  const dash = argv.indexOf('--', 3);
  if (!(SERVER_ARG_COMMANDS as readonly string[]).includes(command) || dash < 0) return { argv: [...argv], serverArgs: [] };
  return { argv: argv.slice(0, dash), serverArgs: argv.slice(dash + 1) };
}

/**
 * Gives this process the server's environment and arguments, before the app module loads: a
 * module reads them as it would under `node dist/app.js <args>`, `process.env.K` and
 * `process.argv.slice(2)`, which never hold mcpkit's own options.
 */
export function applyServerInput(entry: string, input: ServerInput): void {
  Object.assign(process.env, input.env);
  process.argv = [process.argv[0], entry, ...input.args];
}

/** `--env K=V …` then `-- args…`, as a command line of `mcpkit start` takes them again. */
export function serverInputArgs(input: ServerInput): string[] {
  return [...Object.entries(input.env).flatMap(([name, value]) => ['--env', `${name}=${value}`]), ...(input.args.length > 0 ? ['--', ...input.args] : [])];
}
