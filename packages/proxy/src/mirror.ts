import type { McpClient, Page } from '@mcpkit/client';
import { clip, type CapabilityKindName } from '@mcpkit/core';
import { isObject } from '@mcpkit/core/transport';
import { offered, type ProxyOptions } from './proxy-options';

/** At most this many pages of one list are read from the remote (a bound on a server that pages forever). */
const MAX_PAGES = 100;
/** Default of `maxItems`: the most items (tools, prompts, resources, templates together) mirrored. */
export const DEFAULT_MAX_ITEMS = 10_000;

/** One item of the remote, as it listed it: its kind, its key in the app (name or URI), and its entry. */
export interface RemoteItem {
  kind: CapabilityKindName;
  key: string;
  entry: Record<string, unknown>;
}

/** The entries of one list, page after page, until it ends or `room` entries are read. */
async function allPages(read: (cursor: string | undefined) => Promise<Page & object>, field: string, room: number): Promise<unknown[]> {
  const items: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES && items.length < room; page++) {
    const result = await read(cursor);
    const entries = (result as Record<string, unknown>)[field];
    if (Array.isArray(entries)) items.push(...entries.slice(0, room - items.length));
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return items;
}

/**
 * Everything the remote offers that `include`/`exclude` keep, read from the lists its capabilities
 * declare: at most `maxItems` of them, each key once (a remote listing a name twice gets its first
 * entry mirrored). What is left out is told to `onError`.
 */
export async function readRemote(client: McpClient, options: ProxyOptions): Promise<RemoteItem[]> {
  const declared = client.capabilities;
  const max = options.maxItems ?? DEFAULT_MAX_ITEMS;
  const items: RemoteItem[] = [];
  const seen = new Set<string>();
  const report = (why: string) => options.onError?.(new Error(clip(`the upstream server's ${why}`)));
  let read = 0;
  const list = async (kind: CapabilityKindName, keyField: string, field: string, page: (cursor: string | undefined) => Promise<Page & object>) => {
    const entries = await allPages(page, field, max - read + 1);
    read += entries.length;
    for (const entry of entries) {
      const key = isObject(entry) ? entry[keyField] : undefined;
      if (typeof key !== 'string' || !offered(key, options)) continue;
      const item: RemoteItem = { kind, key, entry: entry as Record<string, unknown> };
      if (items.length >= max) return report(`lists hold more than ${max} items (maxItems): the rest are not offered`);
      if (seen.has(itemId(item))) report(`${kind} ${JSON.stringify(key)} is listed twice: its first entry is offered`);
      else items.push(item);
      seen.add(itemId(item));
    }
  };
  if (declared.tools) await list('tool', 'name', 'tools', (cursor) => client.listTools(cursor ? { cursor } : {}));
  if (declared.prompts) await list('prompt', 'name', 'prompts', (cursor) => client.listPrompts(cursor ? { cursor } : {}));
  if (declared.resources) {
    await list('resource', 'uri', 'resources', (cursor) => client.listResources(cursor ? { cursor } : {}));
    await list('resourceTemplate', 'uriTemplate', 'resourceTemplates', (cursor) => client.listResourceTemplates(cursor ? { cursor } : {}));
  }
  return items;
}

/** `kind:key`, the identity of an item across re-lists. */
export const itemId = (item: RemoteItem): string => `${item.kind}:${item.key}`;
