/**
 * Scope hierarchies (`impliedScopes`): a broader scope stands for the narrower ones it names, and
 * those for theirs (2026-07-28 authorization, "Step-Up Authorization Flow": servers MUST account
 * for scope hierarchies).
 */
export type ImpliedScopes = Readonly<Record<string, readonly string[]>>;

/**
 * The scopes `granted` amounts to once every implied scope is added. Scope names are the
 * client's text: only the hierarchy's own entries count (`constructor` or `__proto__` is a scope
 * like any other, never something every object inherits).
 */
export function effectiveScopes(granted: readonly string[], implied: ImpliedScopes | undefined): ReadonlySet<string> {
  const scopes = new Set(granted);
  if (implied === undefined) return scopes;
  const pending = [...granted];
  while (pending.length > 0) {
    for (const narrower of ownValue(implied, pending.pop()!) ?? []) {
      if (scopes.has(narrower)) continue;
      scopes.add(narrower);
      pending.push(narrower);
    }
  }
  return scopes;
}

/**
 * `record[key]` when `record` has it as its own property; undefined for what every object
 * inherits (`constructor`, `toString`, `__proto__`): a name chosen by a client looked up in a
 * plain object.
 */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
