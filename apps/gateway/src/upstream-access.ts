import type { CallTarget, Guard, McpApp, RequestContext } from '@mcpkit/core';

/** The role that may see and call what an upstream calls destructive, as the notes' `delete_note` asks. */
export const ADMIN_ROLE = 'admin';
/** The scope that may call an upstream tool that writes without destroying, as the notes' writes ask. */
export const WRITE_SCOPE = 'notes:write';

/** What a caller needs for an upstream tool, read from its annotations with MCP's defaults. */
type Need = 'any' | 'write' | 'admin';

function needOf(annotations: { readOnlyHint?: boolean; destructiveHint?: boolean } | undefined): Need {
  if (annotations?.readOnlyHint === true) return 'any';
  // MCP's defaults: a tool not said to be read-only writes, and one not said to be harmless may destroy.
  return annotations?.destructiveHint === false ? 'write' : 'admin';
}

/**
 * The authenticated gateway's rule for what it proxies: a proxied server knows nothing of the
 * gateway's callers (the second notes server may even run open), so the gateway judges each of
 * its tools by the upstream's annotations, with MCP's defaults: a tool annotated `readOnlyHint`
 * is anyone's; one annotated `destructiveHint: false` needs the `notes:write` scope (or the admin
 * role); any other (destructive, or not annotated) is the admins' alone. Everyone else finds no
 * such tool, in lists and on call. The annotations are read from the gateway's own published
 * definition, so a tool the upstream adds or changes later is judged as it is then.
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
    const need = this.app === undefined ? 'admin' : needOf(this.app.map.tools.get(target.name)?.entry.annotations);
    const roles = ctx.auth?.claims?.roles;
    if (need === 'any' || (Array.isArray(roles) && roles.includes(ADMIN_ROLE))) return true;
    return need === 'write' && (ctx.auth?.scopes ?? []).includes(WRITE_SCOPE) ? true : 'hide';
  }
}
