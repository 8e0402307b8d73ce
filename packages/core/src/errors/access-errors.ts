import { ErrorCode } from './error-codes';
import { McpError } from './mcp-error';

/** What `data.error` of an access denial says: the RFC 6750 error an HTTP transport answers with. */
export type AccessDenial = 'authentication_required' | 'invalid_token' | 'insufficient_scope' | 'forbidden';

/** The `data` of an access denial: why, and the scopes the operation needs (all of them, A10). */
export interface AccessDeniedData {
  readonly error: AccessDenial;
  readonly scopes?: readonly string[];
}

/**
 * A caller may not use a primitive it can see. In band it is `-31001` with `data.error`; an HTTP
 * transport answers `401` (`authentication_required`, `invalid_token`) or `403`
 * (`insufficient_scope`, `forbidden`) with a `WWW-Authenticate` challenge naming `data.scopes`.
 */
export abstract class AccessDeniedError extends McpError {
  declare readonly data: AccessDeniedData;

  protected constructor(message: string, data: AccessDeniedData) {
    super(ErrorCode.AccessDenied, message, data);
  }

  /** Recognises an access denial by its code and `data.error`, across package copies. */
  static isAccessDenied(value: unknown): value is AccessDeniedError {
    return McpError.isMcpError(value) && value.code === ErrorCode.AccessDenied;
  }
}

/**
 * The caller sent no credentials and the primitive needs some (HTTP: `401` with a challenge).
 *
 * @example
 * throw new AuthenticationRequiredError(['notes:read']);
 */
export class AuthenticationRequiredError extends AccessDeniedError {
  constructor(scopes: readonly string[] = []) {
    super('Authentication required', scopes.length > 0 ? { error: 'authentication_required', scopes: [...scopes] } : { error: 'authentication_required' });
  }
}

/**
 * The caller's credentials were refused (a bad signature, expired, for another audience): the
 * body of an HTTP `401` whose challenge says `error="invalid_token"`, so both give one reason.
 *
 * @example
 * throw new InvalidTokenDenial('The access token is invalid');
 */
export class InvalidTokenDenial extends AccessDeniedError {
  constructor(description = 'The access token is invalid') {
    super(`Invalid token: ${description}`, { error: 'invalid_token' });
  }
}

/**
 * The caller lacks scopes the primitive needs (HTTP: `403` step-up challenge). `scopes` names
 * every scope the operation needs, not only the missing ones, so one challenge is enough (A10).
 *
 * @example
 * throw new InsufficientScopeError(['notes:read', 'notes:write']);
 */
export class InsufficientScopeError extends AccessDeniedError {
  constructor(readonly scopes: readonly string[]) {
    super(`Insufficient scope: needs ${scopes.join(' ')}`, { error: 'insufficient_scope', scopes: [...scopes] });
  }
}

/**
 * The caller may see the primitive but not use it, for a reason no scope fixes (a guard said
 * no, or a guard failed: access fails closed).
 *
 * @example
 * throw new ForbiddenError('Only the note owner may delete it');
 */
export class ForbiddenError extends AccessDeniedError {
  constructor(message = 'Forbidden') {
    super(message, { error: 'forbidden' });
  }
}
