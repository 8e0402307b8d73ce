import { SCOPES_METADATA } from '../metadata/metadata-keys';
import { assertNames, classOrMethod } from './class-or-method';
import type { RequireScopesOptions } from './pipeline-types';

/** One `@RequireScopes` as stored. */
export interface ScopeRule {
  readonly scopes: readonly string[];
  readonly match: 'all' | 'any';
  readonly whenMissing: 'challenge' | 'hide';
}

/**
 * The caller needs these OAuth scopes (through `impliedScopes`, a broader one counts). By
 * default a caller without them still sees the primitive and is answered with a step-up
 * challenge naming every scope it needs; `whenMissing: 'hide'` makes it absent instead. On a
 * class and a method both apply.
 *
 * @example
 * @RequireScopes('notes:write')
 * @Tool() create_note(input: NewNote) { … }
 *
 * @RequireScopes('billing:read', 'billing:admin', { match: 'any', whenMissing: 'hide' })
 */
export function RequireScopes(...args: Array<string | RequireScopesOptions>): ClassDecorator & MethodDecorator {
  const options = typeof args[args.length - 1] === 'object' ? (args.pop() as RequireScopesOptions) : {};
  assertNames('@RequireScopes', args);
  const rule: ScopeRule = Object.freeze({
    scopes: Object.freeze([...(args as string[])]),
    match: options.match === 'any' ? 'any' : 'all',
    whenMissing: options.whenMissing === 'hide' ? 'hide' : 'challenge',
  });
  return classOrMethod('@RequireScopes', SCOPES_METADATA, [rule], true);
}
