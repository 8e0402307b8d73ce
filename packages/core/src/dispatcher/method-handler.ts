import type { LogLevel } from '../logging/log-levels';
import type { RequestContext } from './request-context';

/** What a handshake-era method may change on its session. */
export interface SessionControls {
  logLevel: LogLevel | undefined;
  subscribe(uri: string, on: boolean): void;
}

/** A method's handler: params in, result object out (or a thrown wire error). */
export type MethodHandler = (params: Record<string, unknown>, ctx: RequestContext, session: SessionControls) => unknown;
export type MethodTable = ReadonlyMap<string, MethodHandler>;
