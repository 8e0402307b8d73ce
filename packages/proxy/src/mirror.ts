import type { McpClient, Page } from '@mcpkit/client';
import type { CapabilityKindName } from '@mcpkit/core';
import { offered, type ProxyOptions } from './proxy-options';

/** At most this many pages of one list are read from the remote (a bound on a server that pages forever). */
const MAX_PAGES = 100;

/** One item of the remote, as it listed it: its kind, its key in the app (name or URI), and its entry. */
export interface RemoteItem {
  kind: CapabilityKindName;
  key: string;
  entry: Record<string, unknown>;
}

async function allPages<T>(read: (cursor: string | undefined) => Promise<Page & object>, field: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await read(cursor);
    items.push(...(((result as Record<string, unknown>)[field] as T[] | undefined) ?? []));
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return items;
}

/** Everything the remote offers that `include`/`exclude` keep, read from the lists its capabilities declare. */
export async function readRemote(client: McpClient, options: ProxyOptions): Promise<RemoteItem[]> {
  const declared = client.capabilities;
  const items: RemoteItem[] = [];
  const add = (kind: CapabilityKindName, keyField: string, entries: Array<Record<string, unknown>>) => {
    for (const entry of entries) {
      const key = entry[keyField];
      if (typeof key === 'string' && offered(key, options)) items.push({ kind, key, entry });
    }
  };
  if (declared.tools) add('tool', 'name', await allPages((cursor) => client.listTools(cursor ? { cursor } : {}), 'tools'));
  if (declared.prompts) add('prompt', 'name', await allPages((cursor) => client.listPrompts(cursor ? { cursor } : {}), 'prompts'));
  if (declared.resources) {
    add('resource', 'uri', await allPages((cursor) => client.listResources(cursor ? { cursor } : {}), 'resources'));
    add('resourceTemplate', 'uriTemplate', await allPages((cursor) => client.listResourceTemplates(cursor ? { cursor } : {}), 'resourceTemplates'));
  }
  return items;
}

/** `kind:key`, the identity of an item across re-lists. */
export const itemId = (item: RemoteItem): string => `${item.kind}:${item.key}`;
