import type { Implementation } from '../protocol/mcp-types';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/protocol-versions';

/** The schema a Server Card names (SEP-2127, draft: the shape may still change). */
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/** What a Server Card says beyond the app's server info. */
export interface ServerCardOptions {
  /** The server's name in reverse-DNS form (`io.github.you/notes`, the registry's `mcpName`). Default: the server info's name. */
  name?: string;
  /** One line for people choosing a server (1-100 characters). Default: the server info's description, else its title, else its name. */
  description?: string;
}

/**
 * A Server Card (SEP-2127, draft): what a client needs to know before it connects, served at
 * `<endpoint>/server-card`. It names the server and how to reach it; it does not list tools,
 * which stay subject to `tools/list`.
 */
export interface ServerCard {
  $schema: string;
  name: string;
  version: string;
  description: string;
  title?: string;
  websiteUrl?: string;
  icons?: unknown[];
  remotes: { type: 'streamable-http'; url: string; supportedProtocolVersions: string[] }[];
}

/**
 * The Server Card of an app reached at `url` (its Streamable HTTP endpoint), from the same
 * server info its handshake and its manifest publish.
 *
 * @example
 * const card = buildServerCard(app, 'https://notes.example.com/mcp', { name: 'io.github.you/notes' });
 */
export function buildServerCard(app: { readonly info: Readonly<Implementation> }, url: string, options: ServerCardOptions = {}): ServerCard {
  const info = app.info;
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: options.name ?? info.name,
    version: info.version,
    description: options.description ?? info.description ?? info.title ?? info.name,
    ...(info.title !== undefined ? { title: info.title } : {}),
    ...(info.websiteUrl !== undefined ? { websiteUrl: info.websiteUrl } : {}),
    ...(info.icons !== undefined && info.icons.length > 0 ? { icons: structuredClone(info.icons) as unknown[] } : {}),
    remotes: [{ type: 'streamable-http', url, supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS] }],
  };
}
