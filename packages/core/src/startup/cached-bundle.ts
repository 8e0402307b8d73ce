// Used by core's bundle entries (scripts/bundle.js) to load dist/bundle/core.js. Depends on Node alone.
import { readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
// The module object itself (not a namespace copy): what Node has now is what is asked.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import nodeModule = require('node:module');
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

type ModuleRecord = { exports: unknown; filename: string; paths: string[]; loaded: boolean };
type ModuleStatics = {
  new (id: string): ModuleRecord;
  _cache: Record<string, ModuleRecord | undefined>;
  _nodeModulePaths(from: string): string[];
};
const Module = nodeModule.Module as unknown as ModuleStatics;

// The same wrapper as Node's own for CommonJS, on the file's first line: line numbers stay the file's.
const WRAPPER_START = '(function (exports, require, module, __filename, __dirname) { ';
const WRAPPER_END = '\n});';
// Long enough for a server to have started and answered its first requests, whose functions
// are then compiled and go into the cache too.
const SAVE_AFTER_MS = 1_000;

/** FNV-1a of a path: a short, stable part of the cache file's name. */
function hashOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

/**
 * Loads the CommonJS module at `file` (an absolute path) as `require(file)` would, once per
 * process, keeping V8's compiled code of it beside Node's compile cache.
 *
 * Node's compile cache keeps a module's code as compiled when it loads, which in a bundle is
 * little more than its top level: every function the bundle runs at start-up (each bundled
 * module's body, the scanner, the schema builder) is compiled again on every start. Here the
 * code is kept once the server has started (a second after loading, or at exit if sooner), so
 * a later start finds those functions compiled: about a tenth of an mcpkit server's cold start on
 * Node 24. V8 checks the kept code against the source, its version and its flags, and a
 * mismatch means compiling as usual (and keeping the new code). Without Node's compile cache
 * (Node 20, `NODE_DISABLE_COMPILE_CACHE=1`, no `@mcpkit/core/compile-cache` import first), and
 * with `--enable-source-maps`, this is plain `require`. Never throws for the cache's sake; the module's own errors propagate.
 *
 * @example
 * module.exports = requireCached(require.resolve('./core.js'));
 */
export function requireCached(file: string): unknown {
  const loaded = Module._cache[file];
  if (loaded !== undefined) return loaded.exports;
  // With --enable-source-maps, stack traces name src/*.ts through core.js's source map, which
  // Node reads only for a module it loaded itself.
  const cacheDir = process.sourceMapsEnabled ? undefined : (nodeModule as { getCompileCacheDir?: () => string | undefined }).getCompileCacheDir?.();
  let source: string | undefined;
  let cacheFile = '';
  if (cacheDir !== undefined) {
    try {
      const { size, mtimeMs } = statSync(file);
      source = readFileSync(file, 'utf8');
      cacheFile = join(cacheDir, `mcpkit-${basename(file, '.js')}-${hashOf(file)}-${size}-${Math.trunc(mtimeMs)}.v8`);
    } catch {
      source = undefined;
    }
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (source === undefined) return require(file);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(WRAPPER_START + source + WRAPPER_END, { filename: file, cachedData });
  const module = new Module(file);
  module.filename = file;
  module.paths = Module._nodeModulePaths(dirname(file));
  Module._cache[file] = module;
  try {
    const run = script.runInThisContext() as (...args: unknown[]) => void;
    run.call(module.exports, module.exports, nodeModule.createRequire(file), module, file, dirname(file));
    module.loaded = true;
  } catch (error) {
    delete Module._cache[file];
    throw error;
  }
  if (cachedData === undefined || script.cachedDataRejected === true) keepCode(script, cacheFile);
  return module.exports;
}

/** Writes the script's code to `cacheFile` once: after a while, or at exit if that comes first. */
function keepCode(script: Script, cacheFile: string): void {
  let kept = false;
  const keep = (): void => {
    if (kept) return;
    kept = true;
    clearTimeout(timer);
    process.removeListener('exit', keep);
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
      renameSync(temporary, cacheFile);
    } catch {
      // A cache only: a read-only folder costs the next start its speed, nothing else.
      try {
        unlinkSync(temporary);
      } catch {
        // Never written.
      }
    }
  };
  const timer = setTimeout(keep, SAVE_AFTER_MS);
  // Never what keeps a process alive: exit keeps the code instead.
  timer.unref();
  process.once('exit', keep);
}
