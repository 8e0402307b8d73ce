// Installed by `@mcpkit/core/compile-cache` (a server's first import) and again, for apps that skip
// it, by core's entry points before they load class-validator or pino. Depends on Node alone.
import { Module } from 'node:module';
import { ExportNamesCache, type ExportNames, type ModuleExports } from './export-names-cache';
import { lazyExports, standIn } from './stand-in';

type Load = (request: string, parent: unknown, isMain: boolean) => unknown;
const loader = Module as unknown as { _load?: Load };

interface Package {
  name: string;
  /** A path inside the package (a parent whose requires are deferred). */
  inside: RegExp;
  /** Leaf modules the package's entry requires eagerly and uses late or never. */
  deferred?: RegExp;
  /** Files of the package that re-export many modules, which then load on first use. */
  reexporters?: readonly string[];
}

/**
 * Together about half of the time a stdio server took to start on Node 24, and ~8 MB of its idle
 * memory:
 * - class-validator: validator.js (114 modules, one per check) and `libphonenumber-js/max` (150 KB
 *   of metadata in ~70 modules, for `@IsPhoneNumber` alone), needed when a check first runs; and
 *   its 113 decorator modules, of which an app uses a handful (with the compile cache on);
 * - class-transformer: its type-only modules and the decorators a DTO does not use;
 * - pino: sonic-boom, thread-stream, its transports and multistream and their helpers, needed only
 *   for `pino.destination()`, `pino.transport()` and `pino.multistream()` (mcpkit's own logger
 *   writes through its own destination), and the redaction engine (for the `redact` option).
 */
const PACKAGES: readonly Package[] = [
  {
    name: 'class-validator',
    inside: /[\\/]class-validator[\\/]/,
    // validator.js, the phone metadata, and what turns a validation schema (not decorators) into metadata.
    deferred: /^(?:validator(?:\/lib\/[\w.-]+)?|libphonenumber-js\/max|\.\.\/validation-schema\/ValidationSchemaToMetadataTransformer)$/,
    // The entry: its validator, container, errors and type-only modules wait for a first check.
    reexporters: ['cjs/index.js', 'cjs/decorator/decorators.js'],
  },
  // Type-only modules (empty at run time), the decorators besides `@Type` that DTOs rarely use, and
  // the transformer itself (mcpkit builds most DTOs without it).
  {
    name: 'class-transformer',
    inside: /[\\/]class-transformer[\\/]/,
    deferred: /^\.\/(?:TransformOperationExecutor|constants\/default-options\.constant)$/,
    reexporters: ['cjs/interfaces/index.js', 'cjs/decorators/index.js'],
  },
  {
    name: 'pino',
    inside: /[\\/]pino[\\/]/,
    deferred: /^(?:sonic-boom|thread-stream|on-exit-leak-free|atomic-sleep|@pinojs\/redact|\.\/(?:lib\/)?(?:transport|multistream))$/,
  },
];
const INSTALLED = Symbol.for('mcpkit.deferLeafModules');

function sameNames(exports: unknown, names: readonly string[]): boolean {
  const actual = Object.keys(exports as object).filter((name) => name !== '__esModule');
  return actual.length === names.length && actual.every((name, index) => name === names[index]);
}

/** One load of a package's entry: which requires get stand-ins, and the names to record. */
class PackageLoad {
  private readonly known: ExportNames | undefined;
  private readonly recorded: ExportNames = new Map();
  // A module whose file could not be found again: no names are kept rather than some.
  private incomplete = false;

  constructor(
    readonly pkg: Package,
    private readonly cache: ExportNamesCache | undefined,
    /** Runs a load as part of this one (a re-exported module that loads late defers its leaves too). */
    private readonly within: (load: () => unknown) => unknown,
  ) {
    this.known = cache?.read();
  }

  load(original: Load, request: string, parent: unknown, isMain: boolean): unknown {
    const from = (parent as { filename?: unknown } | undefined)?.filename;
    if (typeof from !== 'string' || !this.pkg.inside.test(from)) return original.call(Module, request, parent, isMain);
    if (this.pkg.deferred?.test(request) === true) return standIn(() => original.call(Module, request, parent, false));
    if (this.cache === undefined || !this.cache.reexporters.has(from)) return original.call(Module, request, parent, isMain);
    const known = this.known?.get(from)?.get(request);
    if (known !== undefined) {
      const cache = this.cache;
      return lazyExports(known.names, () => {
        const exports = this.within(() => original.call(Module, request, parent, false));
        // Altered since it was written: the next start records the names again.
        if (!sameNames(exports, known.names)) cache.forget();
        return exports;
      });
    }
    const exports = original.call(Module, request, parent, isMain);
    const described = ExportNamesCache.describe(request, parent, exports);
    if (described === undefined) this.incomplete = true;
    else this.recorded.set(from, (this.recorded.get(from) ?? new Map<string, ModuleExports>()).set(request, described));
    return exports;
  }

  /** After the entry loaded: keep the names this start recorded, if it had none to use. */
  finish(): void {
    if (this.known === undefined && this.recorded.size > 0 && !this.incomplete) this.cache?.write(this.recorded);
  }
}

/**
 * Makes the first load of class-validator, class-transformer and pino leave their heavy leaf
 * modules for their first use: while the package's entry loads, its requires of them get
 * stand-ins that load the real module when it is first used. Nothing else changes: any other `require` of those modules
 * gets the real one. The hook stays in Node's loader (a pass-through once the packages have
 * loaded) so that a module loaded late, and hooks other tools install after it, see one chain.
 * Does nothing for a package loaded before this ran, or without Node's CommonJS loader (jest's
 * module registry). Idempotent; never throws.
 */
export function deferLeafModules(): void {
  const original = loader._load;
  const registry = globalThis as { [INSTALLED]?: true };
  if (typeof original !== 'function' || registry[INSTALLED]) return;
  registry[INSTALLED] = true;
  const waiting = new Set(PACKAGES);
  let loading: PackageLoad | undefined;
  const hooked: Load = function (this: unknown, request, parent, isMain) {
    if (loading !== undefined) return loading.load(original, request, parent, isMain);
    const pkg = waiting.size === 0 ? undefined : PACKAGES.find((candidate) => candidate.name === request);
    if (pkg === undefined || !waiting.has(pkg)) return original.call(this, request, parent, isMain);
    const cache = pkg.reexporters === undefined ? undefined : ExportNamesCache.open(pkg.name, pkg.reexporters, parent);
    const current: PackageLoad = new PackageLoad(pkg, cache, (load) => {
      const outer = loading;
      loading = current;
      try {
        return load();
      } finally {
        loading = outer;
      }
    });
    loading = current;
    try {
      const exports = original.call(this, request, parent, isMain);
      current.finish();
      return exports;
    } finally {
      loading = undefined;
      waiting.delete(pkg);
    }
  };
  loader._load = hooked;
}

deferLeafModules();
