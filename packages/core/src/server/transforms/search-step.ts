import type { SearchTools } from '../../app/transforms';
import type { AppModel } from '../../dispatcher/app-model';
import type { HandlerContext } from '../../dispatcher/handler-context';
import { rememberFound, toolVisibleTo } from '../../dispatcher/found-tools';
import { ToolError } from '../../errors/tool-error';
import { METHOD } from '../../protocol/methods';
import { isObject } from '../../protocol/json-rpc';
import type { ToolDefinition } from '../../scanner/definitions';
import { generatedTool } from './as-tools';
import { indexTools, rankTools, type ToolIndex } from './tool-search';
import { transformError } from './tool-transform';

type Tools = Map<string, ToolDefinition>;

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 50;
// How many found tools a session's tools/list holds at most (the least recently found leave first).
const DEFAULT_MAX_FOUND = 50;
const MAX_MAX_FOUND = 500;
// A query is a few words: ranking costs the query's words times the catalog's tools, so a caller
// must not make one search cost seconds with a megabyte of words.
const MAX_QUERY_LENGTH = 1_000;

// One index per app state: the tools a search ranks are those of the app when it is called.
const indexes = new WeakMap<ReadonlyMap<string, ToolDefinition>, ToolIndex>();

function indexOf(tools: ReadonlyMap<string, ToolDefinition>, self: string): ToolIndex {
  let index = indexes.get(tools);
  if (index === undefined) {
    index = indexTools([...tools.values()].filter((tool) => tool.name !== self));
    indexes.set(tools, index);
  }
  return index;
}

/**
 * Whether the request belongs to a session its next `tools/list` comes back to: none on 2026-07-28,
 * and none on stateless HTTP (a connection per request, without a session id).
 */
function inSession(ctx: HandlerContext): boolean {
  return ctx.session !== undefined && (ctx.session.id !== undefined || ctx.transport.kind !== 'http');
}

/** The search tool: the best matches this caller may see, with what it takes to call them. */
function searchTool(name: string, limit: number, maxFound: number, app: () => AppModel): ToolDefinition {
  return generatedTool({
    name,
    description:
      'Searches the tools of this server by what they do (their names and descriptions) and returns the best matches with their input schemas. ' +
      'Call a tool it returns by its name, as any listed tool' +
      (maxFound > 0 ? '; in a session, the tools it returns are also added to tools/list.' : '.'),
    fields: { query: 'string', limit: 'integer' },
    required: ['query'],
    descriptions: { query: 'What the tool should do, in a few words.', limit: `How many tools at most (default ${limit}, at most ${MAX_LIMIT}).` },
    run: async (args, ctx) => {
      const query = args.query as string;
      if (query.length > MAX_QUERY_LENGTH) throw new ToolError(`The query is ${query.length} characters long; write at most ${MAX_QUERY_LENGTH}, a few words.`);
      const model = app();
      const wanted = Math.min((args.limit as number | undefined) ?? limit, MAX_LIMIT);
      const found: Array<ToolDefinition['entry']> = [];
      for (const tool of rankTools(indexOf(model.map.tools, name), query)) {
        if (found.length === wanted) break;
        if (await toolVisibleTo(model, tool, ctx)) found.push(tool.entry);
      }
      // In a session, what it found joins that session's tools/list, and its client is told so.
      const listed = found.filter((entry) => model.map.tools.get(entry.name)?.unlisted === true).map((entry) => entry.name);
      if (inSession(ctx) && rememberFound(ctx.session!, listed, maxFound)) ctx.notifyRelated(METHOD.TOOLS_LIST_CHANGED);
      return { tools: found };
    },
  });
}

/**
 * `{ searchTools }`: every tool but the kept ones leaves `tools/list` (each stays callable by
 * name), and a search tool ranks them for the model; in a session, the tools a search found join
 * that session's `tools/list` (at most `maxFound`), with `list_changed` to it alone. Put it last:
 * the tools later transforms add are listed.
 */
export function searchStep(transform: SearchTools, label: string, app: () => AppModel): (tools: Tools, strict: boolean) => Tools {
  const given = transform.searchTools === true ? {} : transform.searchTools;
  const {
    name = 'search_tools',
    keep = [],
    limit = DEFAULT_LIMIT,
    maxFound = DEFAULT_MAX_FOUND,
  } = isObject(given) ? given : ({} as Exclude<SearchTools['searchTools'], true>);
  const valid =
    isObject(given) &&
    typeof name === 'string' &&
    Array.isArray(keep) &&
    keep.every((kept) => typeof kept === 'string') &&
    Number.isSafeInteger(limit) &&
    limit >= 1 &&
    limit <= MAX_LIMIT &&
    Number.isSafeInteger(maxFound) &&
    maxFound >= 0 &&
    maxFound <= MAX_MAX_FOUND;
  if (!valid) {
    throw transformError(
      `${label}: searchTools takes true or { name, keep, limit, maxFound } (a tool name, the names still listed, 1 to ${MAX_LIMIT}, 0 to ${MAX_MAX_FOUND}).`,
      ["Write { searchTools: { keep: ['create_note'], limit: 10, maxFound: 50 } }."],
    );
  }
  return (tools, strict) => {
    if (strict) {
      const missing = keep.filter((kept) => !tools.has(kept));
      if (missing.length > 0)
        throw transformError(`${label} keeps ${missing.map((kept) => `"${kept}"`).join(', ')}, which the app does not offer.`, ['Check the names.']);
      if (tools.has(name))
        throw transformError(`${label} makes a tool "${name}", a name ${tools.get(name)!.owner} already has.`, [
          'Give the search tool another name: { searchTools: { name } }.',
        ]);
    }
    // The search tool first: on a long list it is what the model should see.
    const next: Tools = new Map();
    if (!tools.has(name)) next.set(name, searchTool(name, limit, maxFound, app));
    for (const [own, tool] of tools) next.set(own, keep.includes(own) ? tool : Object.freeze({ ...tool, unlisted: true }));
    return next;
  };
}
