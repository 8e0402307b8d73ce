import type { ServerCapabilities } from '../protocol/mcp-types';
import { METHOD } from '../protocol/methods';

/** The lists a client can be told about, and the notification that tells it. */
export const LIST_CHANGED = {
  tools: METHOD.TOOLS_LIST_CHANGED,
  resources: METHOD.RESOURCES_LIST_CHANGED,
  prompts: METHOD.PROMPTS_LIST_CHANGED,
} as const;

export type ListName = keyof typeof LIST_CHANGED;

export const LIST_NAMES = Object.keys(LIST_CHANGED) as ListName[];

/** The capabilities with `listChanged: true` on every list the app serves (what `announceListChanges` declares). */
export function announcingCapabilities(capabilities: Readonly<ServerCapabilities>): Readonly<ServerCapabilities> {
  const announced: ServerCapabilities = { ...capabilities };
  for (const list of LIST_NAMES) if (announced[list]) announced[list] = { ...announced[list], listChanged: true };
  return Object.freeze(announced);
}

/** The lists whose changes these capabilities promise to announce. */
export function announcedLists(capabilities: Readonly<ServerCapabilities>): ListName[] {
  return LIST_NAMES.filter((list) => capabilities[list]?.listChanged === true);
}
