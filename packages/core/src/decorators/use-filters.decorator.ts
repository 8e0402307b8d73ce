import { FILTERS_METADATA } from '../metadata/metadata-keys';
import { assertParts, classOrMethod } from './class-or-method';
import type { ExceptionFilter, PipelinePart } from './pipeline-types';

/**
 * Exception filters of a primitive (on a class: of each of its primitives): method filters see
 * an error first, then the class's, then the app's.
 *
 * @example
 * @UseFilters(NotFoundAsText)
 * class Notes { … }
 */
export function UseFilters(...filters: Array<PipelinePart<ExceptionFilter>>): ClassDecorator & MethodDecorator {
  assertParts('@UseFilters', 'catch', filters);
  return classOrMethod('@UseFilters', FILTERS_METADATA, filters, true);
}
