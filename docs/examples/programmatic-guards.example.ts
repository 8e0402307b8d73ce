import { createApp, defineTool, type Guard, type RequestContext } from '@mcpkit/core';

/** Only callers of the acme tenant; everyone else finds the tool absent. */
class SameTenant implements Guard {
  canActivate(ctx: RequestContext): boolean | 'hide' {
    return ctx.auth?.claims?.tenant === 'acme' ? true : 'hide';
  }
}

// The options the decorators take, as options: the same metadata, the same pipeline.
export const adminTools = [
  defineTool({ name: 'status', public: true }, () => 'up'),
  defineTool({ name: 'list_users', requireScopes: ['users:read'] }, () => 'ada, grace'),
  defineTool(
    { name: 'purge_users', requireRoles: ['admin'], guards: [SameTenant], rateLimit: { limit: 1, windowMs: 60_000 } },
    (_input, ctx) => `purged by ${ctx.auth!.subject}`,
  ),
];

export const adminApp = createApp({ name: 'admin', version: '1.0.0', providers: adminTools, requireAuth: true });
