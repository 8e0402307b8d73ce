import type { LogLevel } from '../logging/log-levels';
import type { RequestContext } from './request-context';
import type { SubscriptionGrant } from './readable-resource';

/** What a legacy-era method may change on its session. */
export interface SessionControls {
  readonly logLevel: LogLevel | undefined;
  /** Settles once a store that shares the session has the change. */
  setLogLevel(level: LogLevel): void | Promise<void>;
  /** `resources/subscribe` with what let the subscriber in; undefined unsubscribes. */
  subscribe(uri: string, grant: SubscriptionGrant | undefined): void | Promise<void>;
}

/** A method's handler: params in, result object out (or a thrown wire error). */
export type MethodHandler = (params: Record<string, unknown>, ctx: RequestContext, session: SessionControls) => unknown;
export type MethodTable = ReadonlyMap<string, MethodHandler>;
