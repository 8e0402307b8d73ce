import type { AuthInfo } from '../auth/auth-info';
import { effectiveScopes, ownValue, type ImpliedScopes } from '../auth/scopes';
import { pagesOf } from '../app/pages';
import type { ListPages } from '../model/list-pages';
import type { Pipeline } from './compile-pipeline';

/** What one visibility signature sees of a list: the entries the built-in rules let through. */
export interface VisibleEntries<K extends string, T> {
  /** The pages, when no entry left has a guard: served as they are. */
  readonly pages: ListPages<K, T> | undefined;
  /** The entries, and where some have guards, their pipelines (aligned), to run per request. */
  readonly entries: readonly T[];
  readonly guarded: ReadonlyArray<Pipeline | undefined> | undefined;
}

/** Default bound on the signatures remembered per list and revision. */
export const DEFAULT_MAX_SIGNATURES = 256;

/**
 * The filtered lists of one kind, memoised per visibility signature: what of a caller's
 * credentials the kind's built-in rules read (anonymous or not, the `hide` scopes it holds once
 * `impliedScopes` are added, the roles it has), fixed at start-up from the rules in use. Callers
 * with the same signature see the same list, so a repeat list does no per-item work; the
 * signature is computed from each request's own credentials (a step-up changes it mid-session).
 * The memo belongs to one app state: a list change builds a new one. Bounded: past `max`
 * signatures of a list the least recently used is forgotten.
 */
export class VisibleLists {
  private readonly byPages = new WeakMap<object, Map<string, VisibleEntries<string, unknown>>>();
  private readonly scopes: readonly string[];
  private readonly roles: ReadonlyArray<{ claim: string; role: string }>;

  constructor(
    private readonly inOrder: ReadonlyArray<Pipeline | undefined>,
    private readonly implied: ImpliedScopes | undefined,
    private readonly max = DEFAULT_MAX_SIGNATURES,
  ) {
    const scopes = new Set<string>();
    const roles = new Map<string, { claim: string; role: string }>();
    for (const pipeline of inOrder) {
      for (const scope of pipeline?.access?.reads.scopes ?? []) scopes.add(scope);
      for (const rule of pipeline?.access?.reads.roles ?? [])
        for (const role of rule.roles) roles.set(`${rule.claim}\u0000${role}`, { claim: rule.claim, role });
    }
    this.scopes = Object.freeze([...scopes].sort());
    this.roles = Object.freeze([...roles.values()]);
  }

  /** The caller's signature: equal for two callers exactly when the built-in rules treat them alike. */
  signature(auth: AuthInfo | undefined): string {
    if (auth === undefined) return '';
    let signature = '+';
    if (this.scopes.length > 0) {
      const granted = effectiveScopes(auth.scopes, this.implied);
      for (let i = 0; i < this.scopes.length; i++) signature += granted.has(this.scopes[i]) ? '1' : '0';
    }
    if (this.roles.length > 0) {
      const claims = auth.claims;
      signature += '|';
      for (const { claim, role } of this.roles) {
        const held = claims === undefined ? undefined : ownValue(claims, claim);
        signature += Array.isArray(held) && held.includes(role) ? '1' : '0';
      }
    }
    return signature;
  }

  /** What `auth`'s signature sees of `pages` (one revision's list), computed on its first list. */
  of<K extends string, T>(pages: ListPages<K, T>, list: K, auth: AuthInfo | undefined, pageSize: number | undefined): VisibleEntries<K, T> {
    let memo = this.byPages.get(pages);
    if (memo === undefined) this.byPages.set(pages, (memo = new Map()));
    const signature = this.signature(auth);
    let visible = memo.get(signature) as VisibleEntries<K, T> | undefined;
    if (visible !== undefined) {
      // Map order is then least recently used first.
      memo.delete(signature);
    } else {
      visible = this.compute(pages, list, auth, pageSize);
      if (memo.size >= this.max) memo.delete(memo.keys().next().value as string);
    }
    memo.set(signature, visible as VisibleEntries<string, unknown>);
    return visible;
  }

  private compute<K extends string, T>(pages: ListPages<K, T>, list: K, auth: AuthInfo | undefined, pageSize: number | undefined): VisibleEntries<K, T> {
    const all = pages.length === 1 ? pages[0][list] : pages.flatMap((page) => page[list]);
    const entries: T[] = [];
    const guarded: Array<Pipeline | undefined> = [];
    let anyGuard = false;
    for (let index = 0; index < all.length; index++) {
      const pipeline = this.inOrder[index];
      if (pipeline?.access !== undefined && !pipeline.access.visible(auth)) continue;
      entries.push(all[index]);
      const guards = pipeline?.guarded ? pipeline : undefined;
      guarded.push(guards);
      anyGuard ||= guards !== undefined;
    }
    return Object.freeze({
      pages: anyGuard ? undefined : pagesOf(list, entries, pageSize),
      entries: Object.freeze(entries),
      guarded: anyGuard ? Object.freeze(guarded) : undefined,
    });
  }
}
