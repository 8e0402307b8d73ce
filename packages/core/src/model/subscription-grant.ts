import type { AuthInfo } from '../auth/auth-info';

/**
 * What a subscription was granted with: the subscriber's credential, and the pipelines of the
 * app state whose rules and guards let it through (undefined: the app has none).
 */
export interface SubscriptionGrant {
  readonly auth: AuthInfo | undefined;
  /** The compiled pipelines the grant was checked against (compared, never read, here). */
  readonly pipelines: object | undefined;
}
