import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

export const CLIENTS = ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'windsurf'] as const;
export type ClientName = (typeof CLIENTS)[number];

/** Where a client's configuration lives: `user` (all projects) or `project` (this folder's). */
export type InstallScope = 'user' | 'project';

/**
 * A server as a client launches it (stdio, with its environment) or reaches it (HTTP).
 *
 * @example
 * configSnippet('cursor', { name: 'notes', command: '/usr/bin/node', args: ['server.js', '/srv/notes'], env: { NOTES_DB: '/tmp/notes.db' } });
 */
export type ClientServer = { name: string; command: string; args: string[]; env?: Record<string, string> } | { name: string; url: string };

/** Where the clients' files are: the machine's facts, passed in so a test can give others. */
export interface ClientPlace {
  platform: NodeJS.Platform;
  home: string;
  /** `%APPDATA%` on Windows. */
  appData?: string;
  /** `$XDG_CONFIG_HOME` on Linux. */
  xdgConfig?: string;
  /** The project folder (`--scope project`). */
  cwd: string;
}

/** This machine's. */
export function currentPlace(cwd = process.cwd()): ClientPlace {
  return { platform: process.platform, home: homedir(), appData: process.env.APPDATA, xdgConfig: process.env.XDG_CONFIG_HOME, cwd };
}

/** Paths as the client's own system writes them, whatever system this runs on. */
const joiner = (place: ClientPlace) => (place.platform === 'win32' ? win32.join : posix.join);

/** The per-user application data folder: `~/Library/Application Support`, `%APPDATA%`, `~/.config`. */
function appDataDir(place: ClientPlace): string {
  const join = joiner(place);
  if (place.platform === 'darwin') return join(place.home, 'Library', 'Application Support');
  // An empty or relative value is not a folder to use (the XDG spec says to ignore it): the
  // file would land under the current folder.
  if (place.platform === 'win32') return place.appData && win32.isAbsolute(place.appData) ? place.appData : join(place.home, 'AppData', 'Roaming');
  return place.xdgConfig && posix.isAbsolute(place.xdgConfig) ? place.xdgConfig : join(place.home, '.config');
}

/** How one client keeps its MCP servers: the file per scope, the member that holds them, the syntax it reads. */
export interface ClientFile {
  /** The client's name for people. */
  label: string;
  /** The top-level member that maps server names to servers. */
  key: 'mcpServers' | 'servers';
  /** JSON with comments and trailing commas (VS Code's files); else strict JSON. */
  comments: boolean;
  /** The scope used without `--scope`. */
  defaultScope: InstallScope;
  paths: Partial<Record<InstallScope, (place: ClientPlace) => string>>;
}

/**
 * Each client's documented file (docs/cli.md cites the sources). Claude Desktop has no Linux build;
 * its file is looked for where the Linux ports keep it, `~/.config/Claude`.
 */
export const CLIENT_FILES: Record<ClientName, ClientFile> = {
  'claude-desktop': {
    label: 'Claude Desktop',
    key: 'mcpServers',
    comments: false,
    defaultScope: 'user',
    paths: { user: (place) => joiner(place)(appDataDir(place), 'Claude', 'claude_desktop_config.json') },
  },
  'claude-code': {
    label: 'Claude Code',
    key: 'mcpServers',
    comments: false,
    defaultScope: 'user',
    paths: { user: (place) => joiner(place)(place.home, '.claude.json'), project: (place) => joiner(place)(place.cwd, '.mcp.json') },
  },
  cursor: {
    label: 'Cursor',
    key: 'mcpServers',
    comments: false,
    defaultScope: 'user',
    paths: { user: (place) => joiner(place)(place.home, '.cursor', 'mcp.json'), project: (place) => joiner(place)(place.cwd, '.cursor', 'mcp.json') },
  },
  vscode: {
    label: 'VS Code',
    key: 'servers',
    comments: true,
    defaultScope: 'user',
    paths: {
      user: (place) => joiner(place)(appDataDir(place), 'Code', 'User', 'mcp.json'),
      project: (place) => joiner(place)(place.cwd, '.vscode', 'mcp.json'),
    },
  },
  windsurf: {
    label: 'Windsurf',
    key: 'mcpServers',
    comments: false,
    defaultScope: 'user',
    paths: { user: (place) => joiner(place)(place.home, '.codeium', 'windsurf', 'mcp_config.json') },
  },
};

/** The server's entry in the client's file (the value under its name). */
export function serverEntry(client: ClientName, server: ClientServer): Record<string, unknown> {
  if ('url' in server) {
    switch (client) {
      case 'claude-desktop':
        // No URLs in its file: bridged over stdio.
        return { command: 'npx', args: ['-y', 'mcp-remote', server.url] };
      case 'windsurf':
        return { serverUrl: server.url };
      case 'cursor':
        return { url: server.url };
      case 'claude-code':
      case 'vscode':
        return { type: 'http', url: server.url };
    }
  }
  const { command, args, env } = server;
  const launch = { command, args, ...(env && Object.keys(env).length > 0 ? { env } : {}) };
  return client === 'claude-code' || client === 'vscode' ? { type: 'stdio', ...launch } : launch;
}
