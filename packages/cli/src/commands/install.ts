import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliError, EXIT } from '../cli-error';
import { CLIENT_FILES, currentPlace, serverEntry, type ClientName, type ClientServer, type InstallScope } from '../install/client-files';
import { deleteServer, JsonFileError, serverNames, setServer, type SetOutcome } from '../install/json-edit';
import { err, out } from '../output';
import { clientOption, stdioServer, type ConfigOptions } from './config';

export interface InstallOptions extends Omit<ConfigOptions, 'http'> {
  /** `user` (all projects) or `project` (this folder's file), where the client has both. */
  scope?: string;
  /** Write this file instead of the client's own (tests, unusual set-ups). */
  configFile?: string;
}

/** The client's file for this scope, or `--config-file`. */
export function clientFilePath(client: ClientName, options: Pick<InstallOptions, 'scope' | 'configFile'>, cwd = process.cwd()): string {
  const file = CLIENT_FILES[client];
  const scope = (options.scope ?? file.defaultScope) as InstallScope;
  if (scope !== 'user' && scope !== 'project') throw new CliError(`--scope must be user or project, not ${options.scope}`, 'For example: --scope project');
  if (options.configFile) return resolve(cwd, options.configFile);
  const path = file.paths[scope];
  if (!path)
    throw new CliError(
      `${client} has no ${scope} configuration file`,
      `Its servers are in ${Object.keys(file.paths).join(' or ')} scope: drop --scope, or name the file with --config-file.`,
    );
  return path(currentPlace(cwd));
}

function readConfig(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

/**
 * Replaces the file in one step (a reader sees the old file or the new one, never half), with
 * its mode; the old one is kept beside it as `<file>.bak`. Through a symlink, the file it points to.
 */
function writeConfig(path: string, text: string): string | undefined {
  const target = existsSync(path) ? realpathSync(path) : path;
  mkdirSync(dirname(target), { recursive: true });
  let backup: string | undefined;
  const mode = existsSync(target) ? statSync(target).mode & 0o777 : 0o644;
  if (existsSync(target)) copyFileSync(target, (backup = `${target}.bak`));
  const temporary = `${target}.mcpkit-${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode });
  renameSync(temporary, target);
  return backup;
}

/** A file the client would not read either is never written: the error says where it is wrong. */
function refuse(path: string, error: unknown): never {
  if (!(error instanceof JsonFileError)) throw error;
  throw new CliError(
    `${path} is not a configuration this command can edit: ${error.message}`,
    'Fix the file (or move it away), then run this again; it was left as it was.',
    EXIT.FAILURE,
  );
}

/** What `installServer` did, and where the file as it was is kept (when it was written). */
export interface InstallResult {
  outcome: SetOutcome;
  backup?: string;
}

/**
 * Puts `server` in the client's file at `path` (made if missing), in place: other entries,
 * comments and layout are not touched. The same entry again writes nothing (`unchanged`).
 *
 * @throws CliError when the file is not one the client reads; it is left as it was.
 */
export function installServer(client: ClientName, path: string, server: ClientServer): InstallResult {
  const { key, comments } = CLIENT_FILES[client];
  let result: ReturnType<typeof setServer>;
  try {
    result = setServer(readConfig(path), key, server.name, serverEntry(client, server), { comments });
  } catch (error) {
    refuse(path, error);
  }
  if (result.outcome === 'unchanged') return { outcome: 'unchanged' };
  return { outcome: result.outcome, backup: writeConfig(path, result.text) };
}

/**
 * Removes the server `name` from the client's file at `path`, and nothing else.
 *
 * @throws CliError when there is no such server, or the file is not one the client reads.
 */
export function uninstallServer(client: ClientName, path: string, name: string): { backup?: string } {
  const { key, comments } = CLIENT_FILES[client];
  const text = readConfig(path);
  let removed: string | undefined;
  let names: string[];
  try {
    removed = deleteServer(text, key, name, { comments });
    names = serverNames(text, key, { comments });
  } catch (error) {
    refuse(path, error);
  }
  if (removed === undefined)
    throw new CliError(`No server named ${name} in ${path}`, names.length > 0 ? `It has ${names.join(', ')}.` : `It has no "${key}" entries.`, EXIT.FAILURE);
  return { backup: writeConfig(path, removed) };
}

/**
 * `mcpkit install [entry] --client <client> [--scope user|project] [--name] [--env K=V]… [-- args…]`:
 * adds the server, launched over stdio as `mcpkit config` prints it, to the client's own file.
 */
export function install(entry: string | undefined, options: InstallOptions): void {
  const client = clientOption(options.client, 'install');
  const path = clientFilePath(client, options);
  const server = stdioServer(entry, options);
  const { outcome, backup } = installServer(client, path, server);
  if (outcome === 'unchanged') return out(`${server.name} is already in ${path} as it would be written; nothing changed`);
  out(`${outcome} ${server.name} in ${path}`);
  if (backup) err(`the file as it was: ${backup}`);
  err(`Restart ${CLIENT_FILES[client].label} (or reload its MCP servers) to start it.`);
}

/** `mcpkit uninstall <name> --client <client> [--scope] [--config-file]`: removes that entry, and only it. */
export function uninstall(name: string, options: Pick<InstallOptions, 'client' | 'scope' | 'configFile'>): void {
  const client = clientOption(options.client, 'uninstall');
  const path = clientFilePath(client, options);
  const { backup } = uninstallServer(client, path, name);
  out(`removed ${name} from ${path}`);
  if (backup) err(`the file as it was: ${backup}`);
}
