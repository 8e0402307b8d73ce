import { ROLES_METADATA } from '../metadata/metadata-keys';
import { assertNames, classOrMethod } from './class-or-method';
import type { RequireRolesOptions } from './pipeline-types';

/** One `@RequireRoles` as stored. */
export interface RoleRule {
  readonly roles: readonly string[];
  readonly claim: string;
}

/**
 * The caller needs one of these roles, read from a string-array claim of its `AuthInfo`
 * (default `roles`). Everyone else finds the primitive absent: a role cannot be asked for, so
 * there is nothing to challenge.
 *
 * @example
 * @RequireRoles('admin')
 * @Tool() delete_note(input: NoteId) { … }
 */
export function RequireRoles(...args: Array<string | RequireRolesOptions>): ClassDecorator & MethodDecorator {
  const options = typeof args[args.length - 1] === 'object' ? (args.pop() as RequireRolesOptions) : {};
  assertNames('@RequireRoles', args);
  const rule: RoleRule = Object.freeze({ roles: Object.freeze([...(args as string[])]), claim: options.claim ?? 'roles' });
  return classOrMethod('@RequireRoles', ROLES_METADATA, [rule], true);
}
