import { RESOURCE_METADATA } from '../metadata/metadata-keys';
import type { ResourceOptions } from './decorator-options';
import { assertIsMethod } from './assert-method';

/**
 * Declares a method as the reader of one fixed resource URI. Return a string (text), a
 * `Uint8Array` (blob), a contents object or a full `ReadResourceResult`.
 *
 * @example
 * class Docs {
 *   @Resource({ uri: 'docs://readme', mimeType: 'text/markdown' })
 *   readme() {
 *     return '# Hello';
 *   }
 * }
 */
export function Resource(options: ResourceOptions): MethodDecorator {
  return (target, propertyKey, descriptor) => {
    assertIsMethod('@Resource', target, propertyKey, descriptor);
    Reflect.defineMetadata(RESOURCE_METADATA, { ...options }, target, propertyKey);
  };
}
