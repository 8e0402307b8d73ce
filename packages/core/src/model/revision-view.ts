import type { ListPages } from './list-pages';
import type { Implementation, Prompt, Resource, ResourceTemplate, Tool } from '../protocol/mcp-types';

/** The list results and server info of one protocol revision, computed once. */
export interface RevisionView {
  readonly serverInfo: Implementation;
  readonly tools: ListPages<'tools', Tool>;
  readonly resources: ListPages<'resources', Resource>;
  readonly resourceTemplates: ListPages<'resourceTemplates', ResourceTemplate>;
  readonly prompts: ListPages<'prompts', Prompt>;
  /**
   * Some tool has `_meta.ui` (MCP Apps: a view, a visibility): a client without the extension
   * gets the tools without it, and none that only a view may call.
   */
  readonly viewTools: boolean;
  /**
   * The tools left out of `tools/list` yet callable (`searchTools`), shaped for this revision: a
   * session's list adds those its searches found.
   */
  readonly unlistedTools: ReadonlyMap<string, Tool>;
}
