import {
  chmodSync,
  chownSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { dirname, posix, resolve, win32 } from 'node:path';
import { CliError, EXIT } from '../cli-error';
import { CLIENT_FILES, currentPlace, serverEntry, type ClientName, type ClientServer, type InstallScope } from '../install/client-files';
import { deleteServer, JsonFileError, serverNames, setServer, type SetOutcome } from '../install/json-edit';
import { err, out } from '../output';
import { clientOption, stdioServer, type ConfigOptions } from './config';

export interface InstallOptions extends Omit<ConfigOptions, 'http'> {
  /** Replace an entry of that name that mcpkit did not write (another server the user set up). */
  force?: boolean;
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
  // An empty one (`--config-file "$FILE"` with FILE unset) is not the client's own file.
  if (options.configFile !== undefined) {
    if (options.configFile.trim() === '')
      throw new CliError('--config-file is empty', "Name the file to edit, or leave --config-file out to edit the client's own.");
    return resolve(cwd, options.configFile);
  }
  const path = file.paths[scope];
  if (!path)
    throw new CliError(
      `${client} has no ${scope} configuration file`,
      `Its servers are in ${Object.keys(file.paths).join(' or ')} scope: drop --scope, or name the file with --config-file.`,
    );
  const place = currentPlace(cwd);
  // HOME empty or relative: the user's file would be looked for under the current folder.
  if (scope === 'user' && !(place.platform === 'win32' ? win32 : posix).isAbsolute(place.home))
    throw new CliError(
      `Your home folder is not known (HOME is ${JSON.stringify(place.home)})`,
      'Set HOME to your home folder, or name the file with --config-file.',
      EXIT.FAILURE,
    );
  return path(place);
}

/** The file a write lands in: `path`, or through its symlinks the file they point to (made if missing). */
function targetOf(path: string): string {
  let target = path;
  for (let hops = 0; hops < 32; hops++) {
    let link: string;
    try {
      if (!lstatSync(target).isSymbolicLink()) return target;
      link = readlinkSync(target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return target;
      throw fileError(path, error);
    }
    target = resolve(dirname(target), link);
  }
  throw new CliError(`${path} is a loop of symlinks`, 'Point it at a file, or pass another one with --config-file.', EXIT.FAILURE);
}

/** A file-system failure as one line and a hint, for the file the user named. */
function fileError(path: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reasons: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EISDIR: 'it is a folder',
    ENOTDIR: 'a part of its path is a file, not a folder',
    EEXIST: 'a part of its path is a file, not a folder',
    EROFS: 'the file system is read-only',
    ENOSPC: 'the disk is full',
    ELOOP: 'a loop of symlinks',
    ENAMETOOLONG: 'its name is too long',
  };
  if (!code || !(code in reasons)) return error;
  return new CliError(
    `Cannot edit ${path}: ${reasons[code]} (${code})`,
    'Nothing was changed. Check the file and its folder, or pass another file with --config-file.',
    EXIT.FAILURE,
  );
}

const sleep = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** A lock older than this was left by a process that died: taken over. */
const STALE_LOCK_MS = 30_000;

/**
 * Runs `edit` holding `<file>.mcpkit-lock`, so that two mcpkit commands editing the same file at
 * once (two installs from a script) do not both read the old file and lose one's entry.
 */
function withLock<T>(target: string, edit: () => T): T {
  const lock = `${target}.mcpkit-lock`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { force: true });
      } catch {
        // Released meanwhile: try again.
      }
      if (Date.now() > deadline)
        throw new CliError(`${target} is being edited by another mcpkit command`, `If none is running, remove ${lock} and run this again.`, EXIT.FAILURE);
      sleep(25);
    }
  }
  try {
    return edit();
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * The file's text. One that is not UTF-8 (a Windows editor's ANSI or UTF-16) is refused: read
 * otherwise, its other bytes could not be written back as they were.
 */
function readText(path: string, target: string): string {
  try {
    // ignoreBOM: a byte order mark stays in the text, and so in the file.
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(readFileSync(target));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_ENCODING_INVALID_ENCODED_DATA') throw error;
    refuse(path, new JsonFileError('it is not UTF-8 text (save it as UTF-8)'));
  }
}

/**
 * Reads the file at `path` (empty when missing), gives its text to `change`, and writes what
 * that returns (nothing when it returns undefined), holding a lock from the read to the write.
 * Returns the backup made. A folder, a read-only file or a file that cannot be read is refused.
 */
function editConfig(path: string, change: (text: string) => string | undefined, create: boolean): string | undefined {
  const target = targetOf(path);
  try {
    if (create) mkdirSync(dirname(target), { recursive: true });
    else if (!existsSync(dirname(target))) return write(target, change(''));
    return withLock(target, () => {
      const exists = existsSync(target);
      if (exists && statSync(target).isDirectory()) throw Object.assign(new Error('folder'), { code: 'EISDIR' });
      // A device or a pipe (--config-file /dev/null) is not replaced by a file, nor read for ever.
      if (exists && !statSync(target).isFile())
        throw new CliError(`${path} is not a regular file`, 'Nothing was changed. Pass the configuration file itself with --config-file.', EXIT.FAILURE);
      const previous = exists ? statSync(target) : undefined;
      const text = change(exists ? readText(path, target) : '');
      if (text === undefined) return undefined;
      if (previous && (previous.mode & 0o200) === 0)
        throw new CliError(
          `${path} is read-only`,
          'Nothing was changed. Make it writable (chmod u+w) if it is to be edited, then run this again.',
          EXIT.FAILURE,
        );
      return write(target, text, previous);
    });
  } catch (error) {
    throw fileError(path, error);
  }
}

/**
 * Replaces the file in one step (a reader sees the old file or the new one, never half), with
 * its mode and, when root can give it (`sudo mcpkit install`), its owner: the client still
 * writes the file after. The old one is kept beside it as `<file>.bak`.
 */
function write(target: string, text: string | undefined, previous?: Stats): string | undefined {
  if (text === undefined) return undefined;
  let backup: string | undefined;
  const keep = (file: string): void => {
    if (!previous) return;
    chmodSync(file, previous.mode & 0o7777);
    if (process.getuid?.() === 0) chownSync(file, previous.uid, previous.gid);
  };
  // Both made anew, never written through what is there: a `.bak` symlink that a cloned project
  // brings (to ~/.bashrc) must not have the configuration copied over the file it points to.
  if (previous) {
    backup = `${target}.bak`;
    if (existsSync(backup) && lstatSync(backup).isDirectory())
      throw new CliError(
        `${backup}, where the file as it was is kept, is a folder`,
        'Nothing was changed. Move that folder away, then run this again.',
        EXIT.FAILURE,
      );
    rmSync(backup, { force: true });
    copyFileSync(target, backup, constants.COPYFILE_EXCL);
    keep(backup);
  }
  const temporary = `${target}.mcpkit-${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  try {
    // A new file as any other (0666 less the umask); a replacement private until it has the old one's mode.
    writeFileSync(temporary, text, { mode: previous ? 0o600 : 0o666, flag: 'wx' });
    keep(temporary);
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
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

/**
 * Whether an entry is one `mcpkit install` writes (`<node> <…/cli.js> start <entry> --stdio …`):
 * only those are replaced without `--force`, so a user's own server of that name is never lost.
 */
function launchedByMcpkit(entry: unknown): boolean {
  const args = (entry as { args?: unknown } | null)?.args;
  return Array.isArray(args) && typeof args[0] === 'string' && /[\\/]cli\.js$/.test(args[0]) && args[1] === 'start' && args.includes('--stdio');
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
export function installServer(client: ClientName, path: string, server: ClientServer, force = false): InstallResult {
  const { key, comments } = CLIENT_FILES[client];
  const replaceable = force ? undefined : launchedByMcpkit;
  let outcome: SetOutcome = 'unchanged';
  const backup = editConfig(
    path,
    (text) => {
      let result: ReturnType<typeof setServer>;
      try {
        result = setServer(text, key, server.name, serverEntry(client, server), { comments }, replaceable);
      } catch (error) {
        refuse(path, error);
      }
      if (result.outcome === 'taken')
        throw new CliError(
          `${path} already has a server named ${server.name} that mcpkit did not install`,
          'Nothing was changed. Pick another --name, or pass --force to replace that entry.',
          EXIT.FAILURE,
        );
      outcome = result.outcome;
      return outcome === 'unchanged' ? undefined : result.text;
    },
    true,
  );
  return outcome === 'unchanged' ? { outcome } : { outcome, ...(backup === undefined ? {} : { backup }) };
}

/**
 * Removes the server `name` from the client's file at `path`, and nothing else.
 *
 * @throws CliError when there is no such server, or the file is not one the client reads.
 */
export function uninstallServer(client: ClientName, path: string, name: string): { backup?: string } {
  const { key, comments } = CLIENT_FILES[client];
  const backup = editConfig(
    path,
    (text) => {
      let removed: string | undefined;
      let names: string[];
      try {
        removed = deleteServer(text, key, name, { comments });
        names = serverNames(text, key, { comments });
      } catch (error) {
        refuse(path, error);
      }
      if (removed === undefined)
        throw new CliError(
          `No server named ${name} in ${path}`,
          names.length > 0
            ? `It has ${names.join(', ')}.`
            : existsSync(path)
              ? `It has no "${key}" entries.`
              : 'There is no such file: check --client, --scope or --config-file.',
          EXIT.FAILURE,
        );
      return removed;
    },
    false,
  );
  return backup === undefined ? {} : { backup };
}

/**
 * `mcpkit install [entry] --client <client> [--scope user|project] [--name] [--env K=V]… [-- args…]`:
 * adds the server, launched over stdio as `mcpkit config` prints it, to the client's own file.
 */
export function install(entry: string | undefined, options: InstallOptions): void {
  const client = clientOption(options.client, 'install');
  const path = clientFilePath(client, options);
  const server = stdioServer(entry, options);
  const { outcome, backup } = installServer(client, path, server, options.force === true);
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
