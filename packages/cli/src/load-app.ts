import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { DefinitionError, type McpApp } from '@mcpkit/core';
import { CliError, EXIT } from './cli-error';

function isApp(value: unknown): value is McpApp {
  return typeof value === 'object' && value !== null && typeof (value as McpApp).connect === 'function' && typeof (value as McpApp).capabilities === 'object';
}

/**
 * The entry module of a project: the argument, else `mcpkit.app` in the nearest package.json,
 * else `dist/app.js` next to it.
 */
export function resolveEntry(entry: string | undefined, cwd = process.cwd()): string {
  if (entry) {
    const path = isAbsolute(entry) ? entry : resolve(cwd, entry);
    if (!existsSync(path))
      throw new CliError(`No such file: ${entry}`, 'Build first (npm run build), or name the compiled module that exports the app, e.g. dist/app.js.');
    return path;
  }
  for (let dir = cwd; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { mcpkit?: { app?: string } };
      const candidate = resolve(dir, pkg.mcpkit?.app ?? 'dist/app.js');
      if (existsSync(candidate)) return candidate;
      throw new CliError(
        `No app module at ${candidate}`,
        `Build first (npm run build), set "mcpkit": { "app": "dist/app.js" } in package.json, or pass the entry: mcpkit inspect dist/app.js`,
      );
    }
    if (dirname(dir) === dir)
      throw new CliError('No package.json found here or above', 'Run mcpkit inside a project, or pass the entry module: mcpkit inspect path/to/app.js');
  }
}

/**
 * Loads the app from a side-effect-free module: an exported McpApp (`app` or the default), or a
 * factory (`createApp`-like: an exported function named `create…App`) called with no arguments.
 */
export function loadApp(entry: string): McpApp {
  let exports: Record<string, unknown>;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    exports = require(entry) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof DefinitionError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (error instanceof SyntaxError || code === 'MODULE_NOT_FOUND' || code === 'ERR_REQUIRE_ESM' || code === 'ERR_REQUIRE_ASYNC_MODULE') {
      throw new CliError(
        `Could not load ${entry}: ${(error as Error).message}`,
        'The entry must be a compiled CommonJS or ESM module; run npm run build first.',
        EXIT.FAILURE,
      );
    }
    // The module ran and threw: "run the build" would mislead; where it threw is what helps.
    const at = /^\s+at .*$/m.exec((error as Error).stack ?? '')?.[0].trim();
    throw new CliError(
      `Could not load ${entry}: it threw ${(error as Error).message}${at ? ` (${at})` : ''}`,
      'Loading the entry runs it: fix the error above, and keep the entry side-effect free.',
      EXIT.FAILURE,
    );
  }
  const candidates: unknown[] = [exports.app, exports.default, exports];
  for (const candidate of candidates) if (isApp(candidate)) return candidate;
  const factories = Object.entries(exports).filter(([name, value]) => typeof value === 'function' && /^create\w*App$/.test(name));
  if (typeof exports.default === 'function') factories.unshift(['default', exports.default]);
  for (const [, factory] of factories) {
    const made = (factory as () => unknown)();
    if (isApp(made)) return made;
  }
  throw new CliError(`${entry} exports no mcpkit app`, 'Export the app (export const app = createApp(…)) or a factory named like createMyApp().');
}
