/**
 * Who is calling: what a transport (or the caller, in tests and on stdio) established about the
 * request's principal. It never holds the raw credential, so it can be logged, compared and
 * passed to guards without leaking a token.
 *
 * @example
 * const auth: AuthInfo = { subject: 'user-1', clientId: 'cli', scopes: ['notes:read'] };
 * const client = await TestClient.connect(app, { auth });
 */
export interface AuthInfo {
  /** The principal (`sub`). */
  readonly subject: string;
  /** The OAuth client acting for it (`client_id` / `azp`), when known. */
  readonly clientId?: string;
  /** Who vouched for it (`iss`), when known. */
  readonly issuer?: string;
  /** The granted scopes. */
  readonly scopes: readonly string[];
  /** When the credential stops being valid, in seconds since the epoch. */
  readonly expiresAt?: number;
  /** Every other claim of the credential (roles, tenant …), for guards. */
  readonly claims?: Readonly<Record<string, unknown>>;
}
