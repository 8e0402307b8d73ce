import { createApp, type McpApp } from '@mcpkit/core';
import { LimitedTools } from './limited';
import { ShapesTools } from './shapes';
import { syntheticTools } from './synthetic.tools';
import { TestbedTools } from './testbed.tools';

/**
 * Builds the testbed app; `TOOLS` adds that many synthetic tools, `SEARCH_TOOLS=1` offers them by
 * progressive disclosure (`searchTools`: `tools/list` shows `search_tools` alone, docs/compose.md).
 * Side-effect free.
 */
export function createTestbedApp(env: NodeJS.ProcessEnv = process.env): McpApp {
  const extra = Number.parseInt(env.TOOLS ?? '0', 10);
  const providers: object[] = [TestbedTools, ShapesTools, LimitedTools];
  if (extra > 0) providers.push(syntheticTools(extra));
  return createApp({ name: 'mcpkit-testbed', version: '0.1.0', providers, transforms: env.SEARCH_TOOLS === '1' ? [{ searchTools: true }] : [] });
}
