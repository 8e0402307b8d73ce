import { INTERCEPTORS_METADATA } from '../metadata/metadata-keys';
import { assertParts, classOrMethod } from './class-or-method';
import type { Interceptor, PipelinePart } from './pipeline-types';

/**
 * Wraps validation and the handler of a primitive (on a class: of each of its primitives).
 * Order: app, class, method on the way in; the reverse on the way out.
 *
 * @example
 * @Tool()
 * @UseInterceptors(Timing)
 * search(input: SearchInput) { … }
 */
export function UseInterceptors(...interceptors: Array<PipelinePart<Interceptor>>): ClassDecorator & MethodDecorator {
  assertParts('@UseInterceptors', 'intercept', interceptors);
  return classOrMethod('@UseInterceptors', INTERCEPTORS_METADATA, interceptors, true);
}
