import { closeSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { dirname, join } from 'node:path';
import { hashOf } from './path-hash';

/** What a re-exported module exports, and the state of its file when that was recorded. */
export interface ModuleExports {
  /** The module's file (its real path). */
  file: string;
  /** Size and modification time of the file. */
  stamp: string;
  names: readonly string[];
}

/** The modules that re-exporting files require: by re-exporting file, then by specifier. */
export type ExportNames = Map<string, Map<string, ModuleExports>>;

type Resolve = (request: string, parent: unknown) => string;
const resolveFilename = (nodeModule.Module as unknown as { _resolveFilename: Resolve })._resolveFilename;

/** Size and modification time: a file changed in place (patch-package, an edit) gets a new one. */
function stampOf(file: string): string {
  const { size, mtimeMs } = statSync(file);
  return `${size}-${Math.trunc(mtimeMs)}`;
}

function isModuleExports(value: unknown): value is ModuleExports {
  if (typeof value !== 'object' || value === null) return false;
  const { file, stamp, names } = value as Record<string, unknown>;
  return (
    typeof file === 'string' &&
    typeof stamp === 'string' &&
    Array.isArray(names) &&
    names.every((name) => typeof name === 'string') &&
    new Set(names).size === names.length
  );
}

/**
 * Where the export names of a package's re-exported modules are kept between starts: beside
 * Node's compile cache (so only where that cache is on and Node says where, Node ≥ 22.8), one
 * file per installed copy and version of the package. A start that finds no usable file records
 * the names and writes one; a later start reads it (checking every module's file is as it was
 * recorded), so that the re-exported modules can load on first use.
 */
export class ExportNamesCache {
  private constructor(
    /** The files that re-export (their real paths, as a module's `filename`). */
    readonly reexporters: ReadonlySet<string>,
    private readonly file: string,
  ) {}

  /**
   * The cache for `reexporters` (paths inside `packageName`), or undefined without a compile
   * cache or when the package cannot be found from `parent`. Never throws.
   */
  static open(packageName: string, reexporters: readonly string[], parent: unknown): ExportNamesCache | undefined {
    const cacheDir = (nodeModule as { getCompileCacheDir?: () => string | undefined }).getCompileCacheDir?.();
    if (cacheDir === undefined) return undefined;
    try {
      const manifest = resolveFilename(`${packageName}/package.json`, parent);
      const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version?: unknown };
      const files = reexporters.map((path) => join(dirname(manifest), path));
      const key = `${String(version)}-${hashOf(dirname(manifest))}-${files.map(stampOf).join('-')}`.replace(/[^\w.-]/g, '_');
      return new ExportNamesCache(new Set(files), join(cacheDir, `mcpkit-exports-${packageName}-${key}.json`));
    } catch {
      return undefined;
    }
  }

  /** What `request` (required by `parent`) exports, for the next start; undefined if unknown. */
  static describe(request: string, parent: unknown, exports: unknown): ModuleExports | undefined {
    try {
      const file = resolveFilename(request, parent);
      return { file, stamp: stampOf(file), names: Object.keys(exports as object).filter((name) => name !== '__esModule') };
    } catch {
      return undefined;
    }
  }

  /**
   * The names kept by an earlier start, or undefined: none, unreadable, not what was written, or
   * recorded from a module file that has changed since.
   */
  read(): ExportNames | undefined {
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
      const kept: ExportNames = new Map();
      for (const [reexporter, byRequest] of Object.entries(parsed)) {
        if (!this.reexporters.has(reexporter) || typeof byRequest !== 'object' || byRequest === null) return undefined;
        const modules = new Map<string, ModuleExports>();
        for (const [request, module] of Object.entries(byRequest as object)) {
          if (!isModuleExports(module) || stampOf(module.file) !== module.stamp) return undefined;
          modules.set(request, module);
        }
        kept.set(reexporter, modules);
      }
      return kept;
    } catch {
      return undefined;
    }
  }

  /** Keeps `names` for the next start (written whole or not at all). Never throws. */
  write(names: ExportNames): void {
    const temporary = `${this.file}.${process.pid}.tmp`;
    try {
      const fd = openSync(temporary, 'w', 0o600);
      try {
        writeSync(fd, JSON.stringify(Object.fromEntries([...names].map(([reexporter, modules]) => [reexporter, Object.fromEntries(modules)]))));
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, this.file);
    } catch {
      // A cache only: a read-only folder costs the next start its speed, nothing else.
    }
  }

  /** Drops the kept names (they did not match a module as loaded): the next start records them again. */
  forget(): void {
    try {
      unlinkSync(this.file);
    } catch {
      // Gone already, or not ours to remove: the next start finds what it finds.
    }
  }
}
