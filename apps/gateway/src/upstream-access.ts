import type { CallTarget, Guard, McpApp, RequestContext } from '@mcpkit/core';

/** The role that may see and call what an upstream calls destructive, as the notes' `delete_note` asks. */
export const ADMIN_ROLE = 'admin';

/**
 * The authenticated gateway's rule for what it proxies: a proxied server knows nothing of the
 * gateway's callers (the second notes server may even run open), so a tool the upstream annotates
 * `destructiveHint: true` is the admins' alone; everyone else finds no such tool, in lists and on
 * call. The annotation is read from the gateway's own published definition, so a tool the
 * upstream adds or changes later is judged as it is then.
 *
 * @example
 * const access = new UpstreamAccess(['everything', 'remote']);
 * const app = createApp({ guards: [access], … });
 * access.serve(app);
 */
export class UpstreamAccess implements Guard {
  private app: McpApp | undefined;

  constructor(private readonly prefixes: readonly string[]) {}

  /** The app whose definitions the rule reads (made after the guard it is given). */
  serve(app: McpApp): void {
    this.app = app;
  }

  canActivate(ctx: RequestContext, target: CallTarget): boolean | 'hide' {
    if (target.kind !== 'tool' || !this.prefixes.some((prefix) => target.name.startsWith(`${prefix}_`))) return true;
    // Fail closed: before the app is known, no proxied tool is judged harmless.
    const tool = this.app?.map.tools.get(target.name);
    if (this.app !== undefined && tool?.entry.annotations?.destructiveHint !== true) return true;
    const roles = ctx.auth?.claims?.roles;
    return Array.isArray(roles) && roles.includes(ADMIN_ROLE) ? true : 'hide';
  }
}
