import { createApp, type McpApp } from '@mcpkit/core';
import { ConformancePrompts } from './prompts';
import { ConformanceResources } from './resources';
import { ConformanceTools } from './tools';
import { ClientFacingTools } from './client-tools';
import { InputRequiredTools } from './input-required';
import { ListTriggers, running } from './triggers';
import { TaskTools } from './tasks';

/** The conformance surface (side-effect free). `pageSize` pages every list. */
export function createEverythingApp(options: { pageSize?: number } = {}): McpApp {
  const app = createApp({
    name: 'mcpkit-everything',
    version: '0.1.0',
    providers: [ConformanceTools, ClientFacingTools, InputRequiredTools, TaskTools, ListTriggers, ConformanceResources, ConformancePrompts],
    clientLogging: true,
    subscriptions: true,
    dynamic: true,
    pageSize: options.pageSize,
    // One line per change a client announces, with the new roots (asked once, and kept for the
    // session's next list_roots): the roots e2e spec counts them.
    onRootsChanged: async (change) => app.logger.info({ session: change.session.id, roots: await change.roots() }, 'roots changed'),
  });
  running.app = app;
  return app;
}
