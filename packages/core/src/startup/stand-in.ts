/**
 * A module that loads on its first use: a property read, a call, `new`. Two reads answer without
 * loading it: `__esModule` is true, so TypeScript's interop helpers (`__importDefault`,
 * `__importStar`) hand back the stand-in itself instead of enumerating it (`.default` then finds
 * the real export: validator.js sets `module.exports.default` to itself, and a module without one
 * is its own default); and `instanceof` is false while the real class was never loaded, since
 * nothing can be an instance of it yet.
 */
export function standIn(load: () => unknown): unknown {
  let module: Record<PropertyKey, unknown> | undefined;
  const real = () => (module ??= load() as Record<PropertyKey, unknown>);
  const callable = (): ((...args: unknown[]) => unknown) => {
    const exports = real();
    return (typeof exports === 'function' ? exports : exports.default) as (...args: unknown[]) => unknown;
  };
  const hasInstance = (value: unknown) => typeof module === 'function' && value instanceof (module as unknown as new () => object);
  // A plain function: callable and constructible, like the classes and functions it stands for.
  const proxy: unknown = new Proxy(function deferred() {}, {
    get(_, key) {
      if (key === '__esModule') return true;
      if (key === Symbol.hasInstance) return hasInstance;
      const exports = real();
      return key === 'default' && exports.default === undefined ? exports : Reflect.get(exports, key);
    },
    has: (_, key) => key === '__esModule' || Reflect.has(real(), key),
    apply: (_, self, args) => Reflect.apply(callable(), self, args),
    construct(_, args, newTarget) {
      const target = callable() as unknown as new (...args: unknown[]) => object;
      return Reflect.construct(target, args, newTarget === proxy ? target : (newTarget as typeof target));
    },
  });
  return proxy;
}

/**
 * Exports whose names are known before the module loads (from an earlier start): a re-export
 * (`export * from`) enumerates the names and binds each to a getter, so the module loads when one
 * of its exports is first read.
 */
export function lazyExports(names: readonly string[], load: () => unknown): unknown {
  let module: object | undefined;
  const real = () => (module ??= load() as object);
  const known = new Set(names);
  return new Proxy(Object.create(null) as object, {
    get: (_, key) => (key === '__esModule' ? true : Reflect.get(real(), key)),
    has: (_, key) => key === '__esModule' || known.has(key as string) || Reflect.has(real(), key),
    ownKeys: () => [...names],
    getOwnPropertyDescriptor: (_, key) =>
      typeof key === 'string' && known.has(key) ? { value: undefined, writable: true, enumerable: true, configurable: true } : undefined,
  });
}
