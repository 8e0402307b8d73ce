/** A class whose instances can be made with `new`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Constructor<T = any> = new (...args: any[]) => T;

/** True for a function that can be used as a class. */
export function isConstructor(value: unknown): value is Constructor {
  return typeof value === 'function' && typeof (value as { prototype?: unknown }).prototype === 'object';
}
