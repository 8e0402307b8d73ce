import { GUARDS_METADATA } from '../metadata/metadata-keys';
import { assertParts, classOrMethod } from './class-or-method';
import type { Guard, PipelinePart } from './pipeline-types';

/**
 * Runs guards before a primitive (on a class: before each of its primitives), after the app's
 * and, on a method, after the class's. They run before validation, so a caller that may not use
 * a tool cannot probe its schema.
 *
 * @example
 * @UseGuards(TenantGuard)
 * class Billing {
 *   @Tool() invoice(input: InvoiceInput) { … }
 * }
 */
export function UseGuards(...guards: Array<PipelinePart<Guard>>): ClassDecorator & MethodDecorator {
  assertParts('@UseGuards', 'canActivate', guards);
  return classOrMethod('@UseGuards', GUARDS_METADATA, guards, true);
}
