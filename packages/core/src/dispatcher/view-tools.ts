import { ERA_APP_STATE } from '../eras/app-state';
import type { ClientInfo } from '../model/client-info';
import type { Tool } from '../protocol/mcp-types';
import type { ToolDefinition } from '../scanner/definitions';
import { declaresViews, VIEW_URI_META_KEY } from '../protocol/ui-extension';

/**
 * Whether MCP Apps is in force for this request: its client declared the extension, on a revision
 * whose tools carry `_meta` (where the link to a view and the visibility go). Otherwise the server
 * reverts to core behaviour (protocol.md "Extension negotiation").
 */
export function offersViews(client: ClientInfo): boolean {
  return declaresViews(client.capabilities) && ERA_APP_STATE.toolsCarryMeta(client.protocolVersion);
}

/** `tool` without its `_meta.ui` (and the flat `ui/resourceUri`), and without `_meta` once that is all it had. */
function withoutUi(tool: Tool): Tool {
  if (tool._meta?.ui === undefined) return tool;
  const { ui: _ui, [VIEW_URI_META_KEY]: _uri, ...meta } = tool._meta;
  const { _meta: _all, ...rest } = tool;
  return Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest;
}

type ToolsPage = Readonly<{ tools: Tool[]; nextCursor?: string }>;

// Per page served (frozen, one per app state and revision, as are the definitions it lists; a
// guarded list's page is new per request).
const corePages = new WeakMap<ToolsPage, ToolsPage>();

/**
 * A page of `tools/list` as a client without MCP Apps gets it: no tool only a view may call (no
 * app of this client could call it, and its host would offer it to the model), and no `_meta.ui`.
 * The cursor is the page's own: a page may come out shorter than the page size.
 */
export function coreToolsPage(page: ToolsPage, definitions: ReadonlyMap<string, ToolDefinition>): ToolsPage {
  let core = corePages.get(page);
  if (core === undefined) {
    // By definition: a revision without tool `_meta` lists no visibility to read.
    core = Object.freeze({ ...page, tools: page.tools.filter((tool) => definitions.get(tool.name)?.appOnly !== true).map(withoutUi) });
    corePages.set(page, core);
  }
  return core;
}
