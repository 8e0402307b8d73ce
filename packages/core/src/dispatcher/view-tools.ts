import { ERA_APP_STATE } from '../eras/app-state';
import type { ClientInfo } from '../model/client-info';
import type { Tool } from '../protocol/mcp-types';
import type { ToolDefinition } from '../scanner/definitions';
import { declaresViews, VIEW_URI_META_KEY } from '../protocol/ui-extension';
import { pagesOf } from '../app/pages';
import type { ListPages } from '../model/list-pages';
import type { ListShape } from './visible-list';

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

// Per pages served (frozen, one per app state, revision and visibility signature).
const corePages = new WeakMap<ListPages<'tools', Tool>, ListPages<'tools', Tool>>();

/**
 * `tools/list` as a client without MCP Apps gets it: no tool only a view may call (no app of this
 * client could call it, and its host would offer it to the model), and no `_meta.ui`. Applied to
 * the whole list before it is paged, as the other list filters are: the pages are full and their
 * cursors those of a list that never had the hidden tools.
 */
export function coreToolsShape(definitions: ReadonlyMap<string, ToolDefinition>, pageSize: number | undefined): ListShape<'tools', Tool> {
  const entries = (tools: readonly Tool[]): Tool[] => tools.filter((tool) => definitions.get(tool.name)?.appOnly !== true).map(withoutUi);
  return {
    entries,
    pages: (pages) => {
      let core = corePages.get(pages);
      if (core === undefined) {
        core = pagesOf('tools', entries(pages.length === 1 ? pages[0].tools : pages.flatMap((page) => page.tools)), pageSize);
        corePages.set(pages, core);
      }
      return core;
    },
  };
}
