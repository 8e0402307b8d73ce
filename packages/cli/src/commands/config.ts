import { join } from 'node:path';
import type { McpApp } from '@mcpkit/core';
import { CliError } from '../cli-error';
import { CLIENT_FILES, CLIENTS, serverEntry, type ClientName, type ClientServer } from '../install/client-files';
import { loadApp, resolveEntry } from '../load-app';
import { err, out } from '../output';
import { applyServerInput, parseEnvPairs, type ServerInput } from '../server-input';

export { CLIENTS, type ClientName } from '../install/client-files';

export interface ConfigOptions {
  client?: string;
  http?: string;
  name?: string;
  /** The export that is the app (or returns it); passed on to `mcpkit start`. */
  export?: string;
  /** `--env K=V`, repeated: the server's environment. */
  env?: string[];
  /** After `--`: the server's arguments. */
  args?: string[];
}

/** The app's name as a client takes it: no npm scope, only letters, digits, `_` and `-`. */
export function serverName(appName: string): string {
  return appName.replace(/^@[^/]+\//, '').replace(/[^A-Za-z0-9_-]/g, '-');
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** One word of a POSIX shell command line, quoted when it has to be. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

const NOTES: Record<ClientName, string> = {
  'claude-desktop':
    'In claude_desktop_config.json: ~/Library/Application Support/Claude/ (macOS), %APPDATA%\\Claude\\ (Windows); mcpkit install --client claude-desktop writes it.',
  'claude-code': '',
  cursor: 'In .cursor/mcp.json (this project) or ~/.cursor/mcp.json (all projects); mcpkit install --client cursor writes it.',
  vscode: 'In .vscode/mcp.json (this workspace) or your user mcp.json; mcpkit install --client vscode writes it.',
  windsurf: 'In ~/.codeium/windsurf/mcp_config.json; mcpkit install --client windsurf writes it.',
};

/**
 * The snippet (or command) that connects a client to this server, in each client's own format
 * (toolchain.md §10). Stdio launches `node <cli> start <entry> --stdio` with absolute paths, since
 * desktop apps do not see the shell's PATH; the server's environment goes in the client's `env`.
 */
export function configSnippet(client: ClientName, server: ClientServer): { text: string; note?: string } {
  const { name } = server;
  if (client === 'claude-code') {
    if ('url' in server) return { text: `claude mcp add --transport http ${shellWord(name)} ${shellWord(server.url)}` };
    // The name before --env: claude's --env takes several values, and would take the name as one
    // (`Invalid environment variable format: <name>`).
    const env = Object.entries(server.env ?? {}).flatMap(([key, value]) => ['--env', `${key}=${value}`]);
    return { text: ['claude', 'mcp', 'add', name, ...env, '--', server.command, ...server.args].map(shellWord).join(' ') };
  }
  const text = json({ [CLIENT_FILES[client].key]: { [name]: serverEntry(client, server) } });
  if ('url' in server && client === 'claude-desktop')
    return {
      text,
      note: 'Claude Desktop does not take server URLs in claude_desktop_config.json (remote servers go in Settings > Connectors, which reach them from the cloud, so not on localhost). This bridges over stdio with mcp-remote; or use the stdio config (mcpkit config --client claude-desktop).',
    };
  return { text, note: NOTES[client] };
}

/** The checked `--client`. */
export function clientOption(value: string | undefined, command: string): ClientName {
  if (!value || !(CLIENTS as readonly string[]).includes(value))
    throw new CliError(`--client must be one of ${CLIENTS.join(', ')}`, `For example: mcpkit ${command} --client claude-code`);
  return value as ClientName;
}

/** The checked `--name`: a client lists and launches servers by it, so not blank and on one line. */
function nameOption(name: string | undefined): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (name !== undefined && (name.trim() === '' || /[\u0000-\u001f\u007f]/.test(name)))
    throw new CliError(`--name must not be blank or hold control characters, not ${JSON.stringify(name)}`, 'For example: --name notes');
  return name;
}

/**
 * The app of `entry`, loaded with the server's environment and arguments (an app may read them
 * as it loads); with `--http` not loading it is fine if `--name` says the name.
 */
function appFor(entry: string | undefined, options: ConfigOptions, input: ServerInput): McpApp {
  try {
    const path = resolveEntry(entry);
    applyServerInput(path, input);
    return loadApp(path, { export: options.export });
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    throw new CliError(
      error.message,
      'The server is named after the app: build it (npm run build) or pass its module, or name the server yourself: --name <name>.',
      error.exitCode,
    );
  }
}

/**
 * The server a client launches over stdio: `node <cli> start <entry> --stdio [--export] [-- args]`
 * with its environment, named after the app unless `options.name`. Loads the app (with that
 * environment and those arguments), so a module that is not an app fails here rather than in the client.
 */
export function stdioServer(entry: string | undefined, options: ConfigOptions): ClientServer {
  const name = nameOption(options.name);
  const input: ServerInput = { env: parseEnvPairs(options.env), args: options.args ?? [] };
  const path = resolveEntry(entry);
  applyServerInput(path, input);
  const app = loadApp(path, { export: options.export });
  const args = [
    join(__dirname, '..', 'cli.js'),
    'start',
    path,
    '--stdio',
    ...(options.export === undefined ? [] : ['--export', options.export]),
    ...(input.args.length > 0 ? ['--', ...input.args] : []),
  ];
  return { name: name ?? serverName(app.info.name), command: process.execPath, args, ...(Object.keys(input.env).length > 0 ? { env: input.env } : {}) };
}

/** `--http <url>`: the server is already running; nothing is launched, so nothing to pass. */
export function httpServer(entry: string | undefined, options: ConfigOptions): ClientServer {
  const name = nameOption(options.name);
  try {
    new URL(options.http!);
  } catch {
    throw new CliError(`Not a URL: ${options.http}`, 'For example: --http http://127.0.0.1:3000/mcp');
  }
  if ((options.env?.length ?? 0) > 0 || (options.args?.length ?? 0) > 0)
    throw new CliError(
      '--env and -- <args> are for a server the client launches, not one at a URL',
      'Give them to the mcpkit start that serves the URL, or drop --http to launch over stdio.',
    );
  return { name: name ?? serverName(appFor(entry, options, { env: {}, args: [] }).info.name), url: options.http! };
}

/** `mcpkit config --client <client> [--http <url>] [--env K=V]… [entry] [-- args…]`: named after the app unless `--name`. */
export function config(entry: string | undefined, options: ConfigOptions): void {
  const client = clientOption(options.client, 'config');
  const server = options.http ? httpServer(entry, options) : stdioServer(entry, options);
  const { text, note } = configSnippet(client, server);
  out(text);
  if (note) err(note);
}
