/**
 * Scope hierarchies (`impliedScopes`): a broader scope stands for the narrower ones it names, and
 * those for theirs (2026-07-28 authorization, "Step-Up Authorization Flow": servers MUST account
 * for scope hierarchies).
 */
export type ImpliedScopes = Readonly<Record<string, readonly string[]>>;

/** The scopes `granted` amounts to once every implied scope is added. */
export function effectiveScopes(granted: readonly string[], implied: ImpliedScopes | undefined): ReadonlySet<string> {
  const scopes = new Set(granted);
  if (implied === undefined) return scopes;
  const pending = [...granted];
  while (pending.length > 0) {
    for (const narrower of implied[pending.pop()!] ?? []) {
      if (scopes.has(narrower)) continue;
      scopes.add(narrower);
      pending.push(narrower);
    }
  }
  return scopes;
}
