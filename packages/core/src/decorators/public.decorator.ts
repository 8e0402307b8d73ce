import { PUBLIC_METADATA } from '../metadata/metadata-keys';
import { classOrMethod } from './class-or-method';

/**
 * Lets callers without credentials use (and see) a primitive when the app requires them
 * (`createApp({ requireAuth: true })`). Guards still run; they can read `target.isPublic`.
 *
 * @example
 * @Public()
 * @Tool() status() { return 'up'; }
 */
export function Public(): ClassDecorator & MethodDecorator {
  return classOrMethod('@Public', PUBLIC_METADATA, true, false);
}
