import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CliError } from '../cli-error';
import { resolveEntry } from '../load-app';
import { err, out } from '../output';

export const CLIENTS = ['claude-desktop', 'claude-code', 'cursor', 'vscode'] as const;
export type ClientName = (typeof CLIENTS)[number];

export interface ConfigOptions {
  client?: string;
  http?: string;
  name?: string;
}

function projectName(entry: string): string {
  for (let dir = dirname(entry); dirname(dir) !== dir; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name;
      if (name) return name.replace(/^@[^/]+\//, '').replace(/[^A-Za-z0-9_-]/g, '-');
    }
  }
  return 'mcp-server';
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

/** `mcpkit config --client <client> [--http <url>] [entry]`. */
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
    server = { name: options.name ?? 'mcp-server', url: options.http };
  } else {
    const app = resolveEntry(entry);
    server = { name: options.name ?? projectName(app), command: process.execPath, args: [join(__dirname, '..', 'cli.js'), 'start', app, '--stdio'] };
  }
  const { text, note } = configSnippet(client, server);
  out(text);
  if (note) err(note);
}
