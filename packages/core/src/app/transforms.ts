import type { RequestContext } from '../model/request-context';

/**
 * One change to what an app offers (`createApp({ transforms })`), applied in order at start-up
 * (and again when a dynamic app changes) to every tool it publishes, mounted ones included; see
 * docs/compose.md.
 *
 * @example
 * transforms: [{ tool: 'search', name: 'find_notes' }, { drop: { tags: ['internal'] } }, { promptsAsTools: true }]
 */
export type Transform = ToolTransform | DropTools | ResourcesAsTools | PromptsAsTools | SearchTools;

/**
 * Reshapes one tool: a new name, a new description, arguments the model never sees.
 *
 * @example
 * { tool: 'billing_charge', name: 'charge', hide: { tenant: { from: (ctx) => ctx.auth?.claims?.tenant } } }
 */
export interface ToolTransform {
  /** The tool's name as published before this transform (a mounted tool's is `<prefix>_<name>`). */
  readonly tool: string;
  /** Its new name (the same rules as `@Tool({ name })`). */
  readonly name?: string;
  /** Its new description, or a function of the current one. */
  readonly description?: string | ((current: string | undefined) => string);
  /**
   * Arguments removed from its input schema and filled on every call, over whatever the client
   * sent: `{ value }` a fixed value, `{ from: (ctx) => value }` computed from the request (the
   * caller's tenant from `ctx.auth`). The tool's own validation still checks them.
   */
  readonly hide?: Readonly<Record<string, HiddenArgument>>;
}

/**
 * The value of a hidden argument: fixed, or computed per call from the request's context.
 *
 * @example
 * hide: { region: { value: 'eu' }, tenant: { from: (ctx) => ctx.auth?.claims?.tenant } }
 */
export type HiddenArgument = { readonly value: unknown } | { readonly from: (ctx: RequestContext) => unknown };

/**
 * Drops tools by name, or by `@Tool({ tags })`.
 *
 * @example
 * { drop: { names: ['debug_dump'], tags: ['internal'] } }
 */
export interface DropTools {
  readonly drop: { readonly names?: readonly string[]; readonly tags?: readonly string[] };
}

/**
 * Offers the app's resources as two tools, `list_resources` and `read_resource` (names
 * configurable), for clients that only call tools. Reads pass each resource's own guards.
 *
 * @example
 * { resourcesAsTools: { read: 'open_document' } }
 */
export interface ResourcesAsTools {
  readonly resourcesAsTools: true | { readonly list?: string; readonly read?: string };
}

/**
 * Offers the app's prompts as two tools, `list_prompts` and `get_prompt` (names configurable).
 *
 * @example
 * { promptsAsTools: true }
 */
export interface PromptsAsTools {
  readonly promptsAsTools: true | { readonly list?: string; readonly get?: string };
}

/**
 * Progressive disclosure for large catalogs: `tools/list` shows a search tool (`search_tools`)
 * and the kept tools only; every other tool stays callable by name, and the search ranks them
 * over their names and descriptions for the model (only those the caller may see). In a session
 * the tools a search found join that session's `tools/list`, and the session alone is sent
 * `notifications/tools/list_changed` (`maxFound`: at most so many, the least recently found
 * leaving first, default 50; 0 lists none). Put it last.
 *
 * @example
 * { searchTools: { keep: ['create_note'], limit: 10, maxFound: 50 } }
 */
export interface SearchTools {
  readonly searchTools: true | { readonly name?: string; readonly keep?: readonly string[]; readonly limit?: number; readonly maxFound?: number };
}
