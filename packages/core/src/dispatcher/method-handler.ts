import type { HandlerContext } from './handler-context';
import type { SessionControls } from '../model/session-controls';

/** A method's handler: params in, result object out (or a thrown wire error). */
export type MethodHandler = (params: Record<string, unknown>, ctx: HandlerContext, session: SessionControls) => unknown;
export type MethodTable = ReadonlyMap<string, MethodHandler>;
