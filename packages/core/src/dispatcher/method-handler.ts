import type { RequestContext } from './request-context';
import type { SessionControls } from '../model/session-controls';

/** A method's handler: params in, result object out (or a thrown wire error). */
export type MethodHandler = (params: Record<string, unknown>, ctx: RequestContext, session: SessionControls) => unknown;
export type MethodTable = ReadonlyMap<string, MethodHandler>;
