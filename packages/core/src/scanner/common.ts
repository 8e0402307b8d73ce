import type { CommonOptions } from '../decorators/decorator-options';
import type { Invoker } from './definitions';
import type { DecoratedMethod } from './scan-providers';

/** The fields every list entry shares, copied only when set (no `undefined` keys on the wire). */
export function copyCommonFields(options: CommonOptions): {
  title?: string;
  description?: string;
  icons?: CommonOptions['icons'];
  _meta?: CommonOptions['_meta'];
} {
  const fields: ReturnType<typeof copyCommonFields> = {};
  if (options.title !== undefined) fields.title = options.title;
  if (options.description !== undefined) fields.description = options.description;
  if (options.icons !== undefined) fields.icons = options.icons.map((icon) => ({ ...icon }));
  if (options._meta !== undefined) fields._meta = { ...options._meta };
  return fields;
}

/** The handler bound to its instance once, so a call is one plain function call. */
export function bindHandler(method: DecoratedMethod): Invoker {
  const fn = (method.instance as Record<string, (...args: unknown[]) => unknown>)[method.methodName];
  return fn.bind(method.instance) as Invoker;
}
