import { join } from 'node:path';
import { CliError } from '../cli-error';
import { loadApp, resolveEntry } from '../load-app';
import { err, out } from '../output';

export const CLIENTS = ['claude-desktop', 'claude-code', 'cursor', 'vscode'] as const;
export type ClientName = (typeof CLIENTS)[number];

export interface ConfigOptions {
  client?: string;
  http?: string;
  name?: string;
  /** The export that is the app (or returns it); passed on to `mcpkit start`. */
  export?: string;
}

/** The app's name as a client takes it: no npm scope, only letters, digits, `_` and `-`. */
function serverName(appName: string): string {
  return appName.replace(/^@[^/]+\//, '').replace(/[^A-Za-z0-9_-]/g, '-');
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/**
 * The snippet (or command) that connects a client to this server, in each client's own format
 * (toolchain.md §10). Stdio launches `node <cli> start <entry> --stdio` with absolute paths, since
 * desktop apps do not see the shell's PATH.
 */
export function configSnippet(
  client: ClientName,
  server: { name: string; command: string; args: string[] } | { name: string; url: string },
): { text: string; note?: string } {
  const { name } = server;
  if ('url' in server) {
    switch (client) {
      case 'claude-desktop':
        return {
          text: json({ mcpServers: { [name]: { command: 'npx', args: ['-y', 'mcp-remote', server.url] } } }),
          note: 'Claude Desktop does not take server URLs in claude_desktop_config.json (remote servers go in Settings > Connectors, which reach them from the cloud, so not on localhost). This bridges over stdio with mcp-remote; or use the stdio config (mcpkit config --client claude-desktop).',
        };
      case 'claude-code':
        return { text: `claude mcp add --transport http ${name} ${server.url}` };
      case 'cursor':
        return {
          text: json({ mcpServers: { [name]: { url: server.url } } }),
          note: 'In .cursor/mcp.json (this project) or ~/.cursor/mcp.json (all projects).',
        };
      case 'vscode':
        return { text: json({ servers: { [name]: { type: 'http', url: server.url } } }), note: 'In .vscode/mcp.json (this workspace) or your user mcp.json.' };
    }
  }
  const { command, args } = server;
  switch (client) {
    case 'claude-desktop':
      return {
        text: json({ mcpServers: { [name]: { command, args } } }),
        note: 'In claude_desktop_config.json: ~/Library/Application Support/Claude/ (macOS), %APPDATA%\\Claude\\ (Windows).',
      };
    case 'claude-code':
      return { text: `claude mcp add ${name} -- ${[command, ...args].map((part) => (/\s/.test(part) ? JSON.stringify(part) : part)).join(' ')}` };
    case 'cursor':
      return { text: json({ mcpServers: { [name]: { command, args } } }), note: 'In .cursor/mcp.json (this project) or ~/.cursor/mcp.json (all projects).' };
    case 'vscode':
      return { text: json({ servers: { [name]: { type: 'stdio', command, args } } }), note: 'In .vscode/mcp.json (this workspace) or your user mcp.json.' };
  }
}

/** The app of `entry`, for its name; with `--http` not loading it is fine if `--name` says the name. */
function appFor(entry: string | undefined, options: ConfigOptions) {
  try {
    return loadApp(resolveEntry(entry), { export: options.export });
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    throw new CliError(
      error.message,
      'The server is named after the app: build it (npm run build) or pass its module, or name the server yourself: --name <name>.',
      error.exitCode,
    );
  }
}

/** `mcpkit config --client <client> [--http <url>] [entry]`: named after the app unless `--name`. */
export function config(entry: string | undefined, options: ConfigOptions): void {
  const client = options.client as ClientName | undefined;
  if (!client || !CLIENTS.includes(client))
    throw new CliError(`--client must be one of ${CLIENTS.join(', ')}`, 'For example: mcpkit config --client claude-code');
  let server: Parameters<typeof configSnippet>[1];
  if (options.http) {
    try {
      new URL(options.http);
    } catch {
      throw new CliError(`Not a URL: ${options.http}`, 'For example: --http http://127.0.0.1:3000/mcp');
    }
    server = { name: options.name ?? serverName(appFor(entry, options).info.name), url: options.http };
  } else {
    const path = resolveEntry(entry);
    // Loaded now, so a module that is not an app fails here rather than in the client.
    const app = loadApp(path, { export: options.export });
    const args = [join(__dirname, '..', 'cli.js'), 'start', path, '--stdio', ...(options.export === undefined ? [] : ['--export', options.export])];
    server = { name: options.name ?? serverName(app.info.name), command: process.execPath, args };
  }
  const { text, note } = configSnippet(client, server);
  out(text);
  if (note) err(note);
}
