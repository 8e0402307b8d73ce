import { COMPLETE_METADATA } from '../metadata/metadata-keys';
import { assertIsMethod } from './assert-method';

/** What a `@Complete` method completes: one prompt argument or one resource-template variable. */
export type CompleteOptions = { prompt: string; argument: string } | { resourceTemplate: string; variable: string };

/**
 * Declares a method that suggests values for a prompt argument or a resource-template variable
 * (`completion/complete`). It gets the partial value, the other arguments already filled in
 * (2025-06-18 `context.arguments`) and the request context, and returns the suggestions.
 *
 * @example
 * @Complete({ prompt: 'review_code', argument: 'language' })
 * languages(value: string) {
 *   return ['typescript', 'python', 'go'].filter((name) => name.startsWith(value));
 * }
 */
export function Complete(options: CompleteOptions): MethodDecorator {
  return (target, propertyKey, descriptor) => {
    assertIsMethod('@Complete', target, propertyKey, descriptor);
    Reflect.defineMetadata(COMPLETE_METADATA, { ...options }, target, propertyKey);
  };
}
