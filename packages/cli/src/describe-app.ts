import type { McpApp } from '@mcpkit/core';
import { DEFAULT_MANIFEST_ERA } from './eras/manifest-eras';

/** The capability map as plain data: what `mcpkit inspect --json` prints. */
export function describeApp(app: McpApp): Record<string, unknown> {
  const view = app.view(DEFAULT_MANIFEST_ERA);
  return {
    server: view.serverInfo,
    instructions: app.instructions,
    capabilities: app.capabilities,
    tools: view.tools.flatMap((page) => page.tools),
    resources: view.resources.flatMap((page) => page.resources),
    resourceTemplates: view.resourceTemplates.flatMap((page) => page.resourceTemplates),
    prompts: view.prompts.flatMap((page) => page.prompts),
  };
}
