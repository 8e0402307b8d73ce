import type { LogLevel } from '../logging/log-levels';
import type { SubscriptionGrant } from './subscription-grant';

/** What a legacy-era method may change on its session. */
export interface SessionControls {
  readonly logLevel: LogLevel | undefined;
  /** Settles once a store that shares the session has the change. */
  setLogLevel(level: LogLevel): void | Promise<void>;
  /** `resources/subscribe` with what let the subscriber in; undefined unsubscribes. */
  subscribe(uri: string, grant: SubscriptionGrant | undefined): void | Promise<void>;
}
