import { isObject } from './json-rpc';
import type { ClientCapabilities } from './mcp-types';

// The MCP Apps extension (SEP-1865, modelcontextprotocol/ext-apps `specification/2026-01-26/apps.mdx`):
// a server offers HTML views as `ui://` resources and links tools to them in `_meta.ui`.

/** The extension's id in `capabilities.extensions`, the client's and the server's. */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';

/** The MIME type of a view's HTML: the resource's and each content item's. */
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

/** The scheme every view URI has. */
export const VIEW_SCHEME = 'ui://';

/**
 * The deprecated flat form of `_meta.ui.resourceUri`, which the extension's own server helper
 * (`registerAppTool`) still writes beside the nested one for hosts that read only it.
 */
export const VIEW_URI_META_KEY = 'ui/resourceUri';

/** Who may see and call a tool: the model, the view (`app`), or both (the default). */
export type ToolVisibility = 'model' | 'app';

/**
 * Whether a client declared the extension for HTML views: `capabilities.extensions` names it with
 * `mimeTypes` (required by the extension) holding `text/html;profile=mcp-app`.
 */
export function declaresViews(capabilities: ClientCapabilities): boolean {
  const extensions = capabilities.extensions;
  if (!isObject(extensions)) return false;
  const settings = extensions[UI_EXTENSION];
  return isObject(settings) && Array.isArray(settings.mimeTypes) && settings.mimeTypes.includes(VIEW_MIME_TYPE);
}
