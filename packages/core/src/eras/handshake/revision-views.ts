import { pagesOf } from '../../app/pages';
import type { RevisionView } from '../../model/revision-view';
import type { Implementation } from '../../protocol/mcp-types';
import { LATEST_LEGACY_PROTOCOL_VERSION, LEGACY_PROTOCOL_VERSIONS } from '../../protocol/protocol-versions';
import type { CapabilityMap } from '../../scanner/definitions';
import { IMPLEMENTATION_FIELDS, PROMPT_ARGUMENT_FIELDS, PROMPT_FIELDS, RESOURCE_FIELDS, shapeForRevision, TOOL_FIELDS } from './revision-shape';

function viewOf(map: CapabilityMap, info: Implementation, pageSize: number | undefined, version: string): RevisionView {
  // An unlisted tool is callable by name but never listed (progressive disclosure).
  const tools = [...map.tools.values()].filter((tool) => tool.unlisted !== true);
  const unlisted = [...map.tools.values()].filter((tool) => tool.unlisted === true);
  return Object.freeze({
    serverInfo: shapeForRevision({ ...info }, IMPLEMENTATION_FIELDS, version),
    tools: pagesOf(
      'tools',
      tools.map((tool) => shapeForRevision(tool.entry, TOOL_FIELDS, version)),
      pageSize,
    ),
    resources: pagesOf(
      'resources',
      [...map.resources.values()].map((resource) => shapeForRevision(resource.entry, RESOURCE_FIELDS, version)),
      pageSize,
    ),
    resourceTemplates: pagesOf(
      'resourceTemplates',
      map.templates.map((template) => shapeForRevision(template.entry, RESOURCE_FIELDS, version)),
      pageSize,
    ),
    prompts: pagesOf(
      'prompts',
      [...map.prompts.values()].map((prompt) => {
        const shaped = shapeForRevision(prompt.entry, PROMPT_FIELDS, version);
        if (!shaped.arguments) return shaped;
        return { ...shaped, arguments: shaped.arguments.map((argument) => shapeForRevision(argument, PROMPT_ARGUMENT_FIELDS, version)) };
      }),
      pageSize,
    ),
    viewTools: tools.some((tool) => tool.entry._meta?.ui !== undefined),
    unlistedTools: new Map(unlisted.map((tool) => [tool.name, shapeForRevision(tool.entry, TOOL_FIELDS, version)])),
  });
}

/** The list results and server info of every handshake revision, computed once per app state. */
export function revisionViews(map: CapabilityMap, info: Implementation, pageSize: number | undefined): ReadonlyMap<string, RevisionView> {
  const views = new Map<string, RevisionView>();
  for (const version of LEGACY_PROTOCOL_VERSIONS) views.set(version, viewOf(map, info, pageSize, version));
  return views;
}

/** The view of `version`; any other revision (the stateless one included) has every field of the latest. */
export function viewFor(views: ReadonlyMap<string, RevisionView>, version: string): RevisionView {
  return views.get(version) ?? views.get(LATEST_LEGACY_PROTOCOL_VERSION)!;
}
