import type { AuthInfo } from './auth-info';

/** Who a credential names, as one string (issuer and subject), for binding state to it; undefined when anonymous. */
export function principalOf(auth: AuthInfo | null | undefined): string | undefined {
  return auth === undefined || auth === null ? undefined : `${auth.issuer ?? ''} ${auth.subject}`;
}
