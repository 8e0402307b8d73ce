// `@mcpkit/core/compile-cache`: the start-up opt-in, for the owner of a process (a server's main
// module, `mcpkit start`), never for a library. `@mcpkit/core` itself changes nothing outside
// mcpkit when imported; this entry does, on purpose, and only when imported:
// - turns on Node's on-disk compile cache (`module.enableCompileCache`, a supported API);
// - installs a pass-through hook in Node's CommonJS loader so that class-validator and pino,
//   whenever they load, leave their heavy leaf modules for their first use
//   (startup/defer-leaf-modules.ts);
// - lets core's bundle keep its compiled code beside the compile cache (startup/cached-bundle.ts).
// It imports nothing of the framework, so it runs before anything heavy loads.
import * as nodeModule from 'node:module';
import './startup/defer-leaf-modules';
import { requireCached } from './startup/cached-bundle';

type EnableCompileCache = () => { directory?: string };

/**
 * Turns on Node's on-disk compile cache (Node ≥ 22.1; on Node 20 it does nothing), so the
 * second and later start-ups reuse V8's compiled code of every module loaded after this call:
 * about 15% off an mcpkit server's cold start on Node 24. It stores under
 * `os.tmpdir()/node-compile-cache` unless `NODE_COMPILE_CACHE=<dir>` names a folder, and
 * `NODE_DISABLE_COMPILE_CACHE=1` turns it off. Never throws. Returns the cache folder, if any.
 *
 * Importing `@mcpkit/core/compile-cache` calls it and turns on the rest of the start-up opt-in
 * (see the top of this file); make that the first import of a server's main module
 * (`mcpkit start` does it for you). A library never imports it:
 * @example
 * import '@mcpkit/core/compile-cache';
 * import { serveStdio } from '@mcpkit/stdio';
 * import { createWeatherApp } from './app';
 *
 * serveStdio(createWeatherApp());
 */
export function enableCompileCache(): string | undefined {
  const enable = (nodeModule as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  try {
    return enable?.().directory;
  } catch {
    // A cache is an optimisation only: a read-only tmpdir or the like must not stop a server.
    return undefined;
  }
}

enableCompileCache();
// What core's bundle entries (scripts/bundle.js) look for: without it they load core.js with a
// plain require.
(globalThis as Record<symbol, unknown>)[Symbol.for('mcpkit.requireCached')] ??= requireCached;
