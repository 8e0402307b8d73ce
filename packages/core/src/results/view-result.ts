import { isObject } from '../protocol/json-rpc';
import type { ReadResourceResult, ResourceContents } from '../protocol/mcp-types';
import { VIEW_MIME_TYPE } from '../protocol/ui-extension';
import { bytesToBase64 } from './content';

/** What a view's `_meta.ui` says (the extension's `McpUiResourceMeta`), frozen at start-up. */
export type ViewMeta = Readonly<Record<string, unknown>>;

/** `own` (a content item's `_meta`) over the view's declared `_meta.ui`: the item's fields win, as hosts read them. */
function viewContentMeta(ui: ViewMeta | undefined, own: unknown): Record<string, unknown> | undefined {
  const meta = isObject(own) ? own : undefined;
  const ownUi = isObject(meta?.ui) ? meta.ui : undefined;
  if (ui === undefined && ownUi === undefined) return meta;
  return { ...meta, ui: { ...ui, ...ownUi } };
}

/**
 * What an `@AppView` reader returned, as the extension has it: one content item of MIME type
 * `text/html;profile=mcp-app` with the view's `_meta.ui`. A string is the HTML, bytes are sent as
 * a base64 blob, `{ text }` or `{ blob }` (with `_meta.ui` fields of its own, which win) is the
 * item; `undefined` or `null` means "not found". Anything else is the author's mistake: it throws,
 * naming `site`.
 */
export function toViewResult(value: unknown, uri: string, ui: ViewMeta | undefined, site: string): ReadResourceResult | undefined {
  if (value === undefined || value === null) return undefined;
  let item: Record<string, unknown>;
  if (typeof value === 'string') item = { text: value };
  else if (value instanceof Uint8Array) item = { blob: bytesToBase64(value) };
  else if (isObject(value) && (typeof value.text === 'string' || typeof value.blob === 'string' || value.blob instanceof Uint8Array)) {
    if (value.mimeType !== undefined && value.mimeType !== VIEW_MIME_TYPE) {
      throw new TypeError(`${site} returned contents of type ${String(value.mimeType)}; a view's HTML is ${VIEW_MIME_TYPE} (leave mimeType out)`);
    }
    item = { ...value };
    if (value.blob instanceof Uint8Array) item.blob = bytesToBase64(value.blob);
  } else {
    throw new TypeError(
      `${site} returned ${Array.isArray(value) ? 'an array' : typeof value}; a view returns its HTML (a string, bytes, or { text } / { blob })`,
    );
  }
  const { uri: _uri, mimeType: _mimeType, _meta, ...body } = item;
  const contents: Record<string, unknown> = { uri, mimeType: VIEW_MIME_TYPE, ...body };
  const meta = viewContentMeta(ui, _meta);
  if (meta !== undefined) contents._meta = meta;
  return { contents: [contents as unknown as ResourceContents] };
}
