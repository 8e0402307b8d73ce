import type { AuthInfo } from '../auth/auth-info';
import { effectiveScopes, ownValue, type ImpliedScopes } from '../auth/scopes';
import type { RoleRule } from '../decorators/require-roles.decorator';
import type { ScopeRule } from '../decorators/require-scopes.decorator';
import { AuthenticationRequiredError, InsufficientScopeError, type AccessDeniedError } from '../errors/access-errors';

/** A primitive's built-in rules (`@RequireScopes`, `@RequireRoles`, `@Public`, `requireAuth`), compiled. */
export interface AccessRule {
  /** Whether the caller sees the item in lists. */
  visible(auth: AuthInfo | undefined): boolean;
  /** Undefined when the caller may use it; `hidden`; or the denial to answer with. */
  check(auth: AuthInfo | undefined): 'hidden' | AccessDeniedError | undefined;
  /** Whether what `visible` answers depends on the caller. */
  readonly varies: boolean;
  /** What `visible` reads of an authenticated caller: the scopes of its `hide` rules, and its role rules. */
  readonly reads: { readonly scopes: readonly string[]; readonly roles: readonly RoleRule[] };
}

function satisfied(rule: ScopeRule, granted: ReadonlySet<string>): boolean {
  return rule.match === 'any' ? rule.scopes.some((scope) => granted.has(scope)) : rule.scopes.every((scope) => granted.has(scope));
}

function hasRole(rule: RoleRule, auth: AuthInfo): boolean {
  const held = auth.claims === undefined ? undefined : ownValue(auth.claims, rule.claim);
  return Array.isArray(held) && rule.roles.some((role) => held.includes(role));
}

/** Compiles the rules of one primitive; undefined when there are none. */
export function compileAccessRule(
  scopes: readonly ScopeRule[],
  roles: readonly RoleRule[],
  needsCaller: boolean,
  implied: ImpliedScopes | undefined,
): AccessRule | undefined {
  if (scopes.length === 0 && roles.length === 0 && !needsCaller) return undefined;
  const hiding = scopes.filter((rule) => rule.whenMissing === 'hide');
  const challenging = scopes.filter((rule) => rule.whenMissing === 'challenge');
  // One challenge naming every scope the operation needs (A10), in declaration order.
  const needed = Object.freeze([...new Set(challenging.flatMap((rule) => rule.scopes))]);
  const hidesAnonymous = roles.length > 0 || hiding.length > 0;
  const hidden = (auth: AuthInfo): boolean => {
    if (!roles.every((rule) => hasRole(rule, auth))) return true;
    if (hiding.length === 0) return false;
    const granted = effectiveScopes(auth.scopes, implied);
    return !hiding.every((rule) => satisfied(rule, granted));
  };
  return Object.freeze({
    varies: hidesAnonymous || needsCaller,
    reads: Object.freeze({ scopes: Object.freeze([...new Set(hiding.flatMap((rule) => rule.scopes))]), roles }),
    visible: (auth: AuthInfo | undefined) => (auth === undefined ? !hidesAnonymous && !needsCaller : !hidden(auth)),
    check(auth: AuthInfo | undefined) {
      if (auth === undefined) {
        if (hidesAnonymous) return 'hidden';
        return needed.length > 0 || needsCaller ? new AuthenticationRequiredError(needed) : undefined;
      }
      if (hidden(auth)) return 'hidden';
      if (challenging.length === 0) return undefined;
      const granted = effectiveScopes(auth.scopes, implied);
      return challenging.every((rule) => satisfied(rule, granted)) ? undefined : new InsufficientScopeError(needed);
    },
  });
}
