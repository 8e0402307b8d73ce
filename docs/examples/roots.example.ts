import { createApp, Tool, type RequestContext, type Root } from '@mcpkit/core';

// The roots each session last announced (keyed by session id; undefined on stdio).
export const announced = new Map<string | undefined, Root[]>();

export class Workspace {
  @Tool({ description: 'Lists the folders the client lets this server see', input: null })
  async folders(_input: unknown, ctx: RequestContext): Promise<string> {
    // Asked once per session; asked again only after the client says its roots changed.
    const roots = await ctx.roots();
    return roots.map((root) => root.uri).join('\n') || 'No roots';
  }
}

export const workspaceApp = createApp({
  name: 'workspace',
  version: '1.0.0',
  providers: [Workspace],
  // A client that declares roots but never answers costs one wait of 2 s per session, not one per call.
  rootsTimeoutMs: 2_000,
  onRootsChanged: async (change) => {
    // The same roots/list the session's next ctx.roots() would send: it is sent once, for both.
    announced.set(change.session.id, await change.roots());
  },
});
