import type { SessionInfo } from '../model/session-info';
import type { RevisionView } from '../model/revision-view';
import type { Tool } from '../protocol/mcp-types';
import type { ToolDefinition } from '../scanner/definitions';
import type { AppModel } from './app-model';
import type { HandlerContext } from './handler-context';
import { offersViews } from './view-tools';

// Progressive disclosure (`searchTools`): the unlisted tools a session's searches found, newest
// last. Keyed by the session's own object, so a set goes with its connection.
const foundBySession = new WeakMap<SessionInfo, Set<string>>();

// A list that differs by session is nobody else's.
const PER_SESSION = Object.freeze({ scope: 'private' as const });

type ToolsPage = Readonly<{ tools: Tool[]; nextCursor?: string }>;

/** Whether this caller may know of `tool`: what `tools/list` would show it, were the tool listed. */
export async function toolVisibleTo(app: AppModel, tool: ToolDefinition, ctx: HandlerContext): Promise<boolean> {
  if (tool.appOnly && !offersViews(ctx.client)) return false;
  const pipeline = app.pipelines?.tools.byName.get(tool.name);
  return pipeline === undefined || (await pipeline.visible(ctx));
}

/**
 * Adds what a search found to its session's set, the least recently found leaving past `max`.
 * True when the set gained a name (the session's `tools/list` changed); a name found again only
 * becomes the newest.
 */
export function rememberFound(session: SessionInfo, names: readonly string[], max: number): boolean {
  if (max < 1 || names.length === 0) return false;
  let found = foundBySession.get(session);
  if (found === undefined) foundBySession.set(session, (found = new Set()));
  let changed = false;
  for (const name of names) {
    if (found.delete(name)) {
      found.add(name);
      continue;
    }
    found.add(name);
    changed = true;
    if (found.size > max) found.delete(found.values().next().value!);
  }
  return changed;
}

/** The tools this session's searches found, oldest first; undefined when there are none (or no session). */
export function foundTools(session: SessionInfo | undefined): ReadonlySet<string> | undefined {
  const found = session === undefined ? undefined : foundBySession.get(session);
  return found === undefined || found.size === 0 ? undefined : found;
}

/**
 * The `tools/list` page with the session's found tools after the listed ones (on the last page:
 * the earlier pages keep their cursors), each only if this caller may see it now and the app still
 * offers it. `shape` is the MCP Apps shaping of a client without the extension.
 */
export async function withFoundTools(
  app: AppModel,
  view: RevisionView,
  listed: ToolsPage | Promise<ToolsPage>,
  found: ReadonlySet<string>,
  ctx: HandlerContext,
  shape: ((entries: readonly Tool[]) => Tool[]) | undefined,
): Promise<ToolsPage> {
  ctx.declaredCacheHint = PER_SESSION;
  const page = await listed;
  if (page.nextCursor !== undefined) return page;
  const extra: Tool[] = [];
  for (const name of found) {
    const entry = view.unlistedTools.get(name);
    const tool = app.map.tools.get(name);
    if (entry !== undefined && tool !== undefined && (await toolVisibleTo(app, tool, ctx))) extra.push(entry);
  }
  if (extra.length === 0) return page;
  return Object.freeze({ ...page, tools: [...page.tools, ...(shape ? shape(extra) : extra)] });
}
