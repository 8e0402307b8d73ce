// Used by core's bundle entries (scripts/bundle.js) to load dist/bundle/core.js. Depends on Node alone.
import { readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
// The module object itself (not a namespace copy): what Node has now is what is asked.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import nodeModule = require('node:module');
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { hashOf } from './path-hash';
import { unrefTimer } from '../types/unref-timer';

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

// The kept file: this header, a copy of the source it was compiled from, then V8's code cache
// twice. Release builds of V8 check a code cache's version, flags and lengths but not its bytes,
// so a damaged one would run (or crash) at every start, and they tell sources apart by length
// alone. Comparing copies (memcmp) catches both: the source must be this very one, byte for byte
// (packages keep a fixed mtime, so size and date do not tell builds apart), and the code must
// match its mirror. A checksum would do the second at a lower disk cost, but Node's only native
// one is in node:zlib, whose loading took two of the milliseconds this cache saves.
const MAGIC = 0x334b434d; // "MCK3": source copy and mirrored code, no checksums
const HEADER_BYTES = 16;
/** Kept a while after start-up (not at an early exit): nothing a later start could add. */
const COMPLETE = 1;

interface Kept {
  data: Buffer;
  complete: boolean;
}

/** The code kept for this very source, if the file is whole and its two copies agree. */
function readKept(cacheFile: string, source: Buffer): Kept | undefined {
  let file: Buffer;
  try {
    file = readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  if (file.length <= HEADER_BYTES || file.readUInt32LE(0) !== MAGIC || file.readUInt32LE(8) !== source.length) return undefined;
  const codeBytes = file.readUInt32LE(12);
  const codeAt = HEADER_BYTES + source.length;
  if (codeBytes === 0 || file.length !== codeAt + 2 * codeBytes || !source.equals(file.subarray(HEADER_BYTES, codeAt))) return undefined;
  const data = file.subarray(codeAt, codeAt + codeBytes);
  if (!data.equals(file.subarray(codeAt + codeBytes))) return undefined;
  return { data, complete: (file.readUInt32LE(4) & COMPLETE) !== 0 };
}

// Code compiled in another realm (jest runs each test file in its own vm context) would not be
// the realm its requirer sees: its errors would not be that realm's Error, nor its Reflect the
// one reflect-metadata decorates.
function inMainRealm(): boolean {
  return new Script('globalThis').runInThisContext() === globalThis;
}

/**
 * Loads the CommonJS module at `file` (an absolute path) as `load` (its plain `require`) would,
 * once per process, keeping V8's compiled code of it beside Node's compile cache.
 *
 * Node's compile cache keeps a module's code as compiled when it loads, which in a bundle is
 * little more than its top level: every function the bundle runs at start-up (each bundled
 * module's body, the scanner, the schema builder) is compiled again on every start. Here the
 * code is kept once the server has started (a second after loading, or at exit if sooner, and
 * then again a second into a later start), so a later start finds those functions compiled:
 * about a tenth of an mcpkit server's cold start on Node 24. The kept file carries the source
 * it was made from and its code twice: anything else (damaged, another build) is compiled
 * afresh and kept anew, as is code V8 rejects (another version or flags). `load` is used
 * instead without Node's compile cache (Node 20, `NODE_DISABLE_COMPILE_CACHE=1`, no
 * `@mcpkit/core/compile-cache` import first), with `--enable-source-maps`, outside Node's main
 * realm (jest), and where `file` is not on disk or does not begin with `signature` (an app
 * bundled into one file, whose folder is not ours). Never throws for the cache's sake; the
 * module's own errors propagate.
 *
 * @example
 * module.exports = requireCached(join(__dirname, 'core.js'), '/* core *' + '/', () => require('./core.js'));
 */
export function requireCached<T>(file: string, signature: string, load: () => T): T {
  const loaded = Module._cache[file];
  if (loaded !== undefined) return loaded.exports as T;
  // With --enable-source-maps, stack traces name src/*.ts through core.js's source map, which
  // Node reads only for a module it loaded itself.
  const cacheDir = process.sourceMapsEnabled ? undefined : (nodeModule as { getCompileCacheDir?: () => string | undefined }).getCompileCacheDir?.();
  if (cacheDir === undefined || !inMainRealm()) return load();
  let bytes: Buffer;
  let cacheFile: string;
  try {
    bytes = readFileSync(file);
    if (bytes.toString('latin1', 0, signature.length) !== signature) return load();
    cacheFile = join(cacheDir, `mcpkit-${basename(file, '.js')}-${hashOf(file)}-${bytes.length}.v8`);
  } catch {
    return load();
  }
  const kept = readKept(cacheFile, bytes);
  const script = new Script(WRAPPER_START + bytes.toString('utf8') + WRAPPER_END, { filename: file, cachedData: kept?.data });
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
  if (kept === undefined || script.cachedDataRejected === true) keepCode(script, cacheFile, bytes, true);
  // Kept by a process that ended early: a second into this one there is more to keep.
  else if (!kept.complete) keepCode(script, cacheFile, bytes, false);
  return module.exports as T;
}

/** Writes the script's code to `cacheFile` once: after a while, or (`atExit`) at exit if that comes first. */
function keepCode(script: Script, cacheFile: string, source: Buffer, atExit: boolean): void {
  let kept = false;
  const keep = (complete: boolean): void => {
    if (kept) return;
    kept = true;
    clearTimeout(timer);
    process.removeListener('exit', onExit);
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    try {
      const data = script.createCachedData();
      const header = Buffer.alloc(HEADER_BYTES);
      header.writeUInt32LE(MAGIC, 0);
      header.writeUInt32LE(complete ? COMPLETE : 0, 4);
      header.writeUInt32LE(source.length, 8);
      header.writeUInt32LE(data.length, 12);
      writeFileSync(temporary, Buffer.concat([header, source, data, data]), { mode: 0o600 });
      renameSync(temporary, cacheFile);
      forgetOtherBuilds(cacheFile);
    } catch {
      // A cache only: a read-only folder costs the next start its speed, nothing else.
      try {
        unlinkSync(temporary);
      } catch {
        // Never written.
      }
    }
  };
  const onExit = (): void => keep(false);
  // Never what keeps a process alive: exit keeps the code instead.
  const timer = unrefTimer(setTimeout(() => keep(true), SAVE_AFTER_MS));
  if (atExit) process.once('exit', onExit);
}

/**
 * Deletes what earlier builds of the same file kept (same name and path, another length): each
 * upgrade would otherwise leave its few hundred kB behind for good. Runs only when code is kept,
 * once per build.
 */
function forgetOtherBuilds(cacheFile: string): void {
  const folder = dirname(cacheFile);
  const name = basename(cacheFile);
  // `mcpkit-<file>-<path hash>-`: the length and `.v8` follow.
  const stem = name.slice(0, name.lastIndexOf('-') + 1);
  for (const other of readdirSync(folder)) {
    if (other === name || !other.startsWith(stem) || !/^\d+\.v8$/.test(other.slice(stem.length))) continue;
    try {
      unlinkSync(join(folder, other));
    } catch {
      // Another process got there first, or the folder is not ours to change.
    }
  }
}
