import { RESOURCE_TEMPLATE_METADATA } from '../metadata/metadata-keys';
import type { TemplateVariables } from '../uri-template/template-variables';
import type { RequestContext } from '../model/request-context';
import type { ResourceTemplateOptions } from './decorator-options';
import { assertIsMethod } from './assert-method';

/**
 * Declares a method as the reader of every URI matching an RFC 6570 template. The variables
 * parsed from the requested URI arrive as the first argument, typed from the template itself.
 *
 * @example
 * class Notes {
 *   @ResourceTemplate({ uriTemplate: 'notes://{id}', mimeType: 'text/plain' })
 *   note({ id }: { id: string }) {
 *     return store.get(id);
 *   }
 * }
 */
export function ResourceTemplate<const T extends string>(
  options: ResourceTemplateOptions<T>,
): <H extends (variables: TemplateVariables<T>, ctx: RequestContext) => unknown>(
  target: object,
  propertyKey: string | symbol,
  descriptor: TypedPropertyDescriptor<H>,
) => void {
  return (target, propertyKey, descriptor) => {
    assertIsMethod('@ResourceTemplate', target, propertyKey, descriptor);
    Reflect.defineMetadata(RESOURCE_TEMPLATE_METADATA, { ...options }, target, propertyKey);
  };
}
