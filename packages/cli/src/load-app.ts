import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { explainStandardDecoratorCrash, type McpApp } from '@mcpkit/core';
import { CliError, EXIT } from './cli-error';
import { isDefinitionError } from './output';

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

/** How to pick the app out of the entry module. */
export interface LoadAppOptions {
  /** The export to use (`--export`): an app, or a function that returns one (called with no arguments). */
  export?: string;
}

/** A factory by its name: `createApp`-like (`create…App`), or the module's default export. */
const FACTORY_NAME = /^create\w*App$/;

/** A function that may be called to make the app: not a class (which needs `new`). */
function isFactory(value: unknown): value is () => unknown {
  return typeof value === 'function' && !/^class\b/.test(Function.prototype.toString.call(value));
}

/** Where an error was thrown: the first frame of its stack. */
function thrownAt(error: unknown): string {
  const at = /^\s+at .*$/m.exec((error as Error)?.stack ?? '')?.[0].trim();
  return at ? ` (${at})` : '';
}

/**
 * What loading or creating the app threw, as a start-up error that prints with its code and
 * fixes: a declaration mistake (from any installed copy of core), or a DTO compiled without
 * experimentalDecorators, which throws inside class-validator before any of core's checks (core's
 * process-wide note never runs when the CLI catches the crash).
 */
function startupError(error: unknown): Error | undefined {
  return isDefinitionError(error) ? error : explainStandardDecoratorCrash(error);
}

/** What Node says when it reads an ES module as CommonJS. */
const ESM_IN_COMMONJS = /Cannot use import statement outside a module|Unexpected token 'export'/;

function requireEntry(entry: string): Record<string, unknown> {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(entry) as Record<string, unknown>;
  } catch (error) {
    const diagnosed = startupError(error);
    if (diagnosed) throw diagnosed;
    const code = (error as NodeJS.ErrnoException).code;
    // tsc wrote ES modules ("module": "esnext", "es2022" …) into a package Node reads as CommonJS:
    // the build ran, so "run the build" would send the user round in a circle.
    if (error instanceof SyntaxError && ESM_IN_COMMONJS.test(error.message)) {
      throw new CliError(
        `Could not load ${entry}: it is an ES module (${error.message}), but the nearest package.json does not say "type": "module"`,
        'Set "type": "module" in package.json (npm pkg set type=module), or compile to CommonJS: "module": "nodenext" (or "commonjs") in tsconfig.json, then build again.',
        EXIT.FAILURE,
      );
    }
    if (error instanceof SyntaxError || code === 'MODULE_NOT_FOUND' || code === 'ERR_REQUIRE_ESM' || code === 'ERR_REQUIRE_ASYNC_MODULE') {
      throw new CliError(
        `Could not load ${entry}: ${(error as Error).message}`,
        'The entry must be a compiled CommonJS or ESM module; run npm run build first.',
        EXIT.FAILURE,
      );
    }
    // The module ran and threw: "run the build" would mislead; where it threw is what helps.
    throw new CliError(
      `Could not load ${entry}: it threw ${(error as Error).message}${thrownAt(error)}`,
      'Loading the entry runs it: fix the error above, and keep the entry side-effect free.',
      EXIT.FAILURE,
    );
  }
}

/** Calls a factory export; what it returns must be an app, now (the commands need it synchronously). */
function callFactory(entry: string, name: string, factory: () => unknown): McpApp {
  let made: unknown;
  try {
    made = factory();
  } catch (error) {
    const diagnosed = startupError(error);
    if (diagnosed) throw diagnosed;
    throw new CliError(`${name}() in ${entry} threw ${(error as Error)?.message ?? String(error)}${thrownAt(error)}`, 'Fix the error above.', EXIT.FAILURE);
  }
  if (isApp(made)) return made;
  if (typeof (made as PromiseLike<unknown> | null)?.then === 'function')
    throw new CliError(
      `${name}() in ${entry} returns a promise, not an mcpkit app`,
      'Create the app synchronously (createApp is synchronous) and export it or a factory that returns it; do the async set-up in the handlers.',
    );
  throw new CliError(`${name}() in ${entry} does not return an mcpkit app`, 'Export the app itself, or a function that returns createApp(…).');
}

/** `a, b and c` */
function names(list: readonly string[]): string {
  return list.length < 2 ? list.join('') : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
}

/**
 * Loads the app from a side-effect-free module. Without `export`: the one app it exports, under
 * any name (the same app under two names, `app` and `default`, counts once); else its one
 * factory (a function named like `createMyApp`, or the default export), called with no arguments.
 * None or several is an error that names what the module exports and suggests `--export`.
 *
 * @throws CliError when the module cannot be loaded or does not lead to exactly one app;
 * DefinitionError from `createApp` when the app is declared wrongly.
 */
export function loadApp(entry: string, options: LoadAppOptions = {}): McpApp {
  const exports = requireEntry(entry);
  // module.exports = app
  if (isApp(exports)) return exports;
  const exported = Object.keys(exports).filter((name) => name !== '__esModule');
  const pick = options.export;
  if (pick !== undefined) {
    if (!exported.includes(pick))
      throw new CliError(
        `${entry} has no export named ${pick}`,
        exported.length > 0 ? `It exports ${names(exported)}.` : 'It exports nothing: export the app, e.g. export const app = createApp(…).',
      );
    const value = exports[pick];
    if (isApp(value)) return value;
    if (isFactory(value)) return callFactory(entry, pick, value);
    throw new CliError(`${pick} in ${entry} is not an mcpkit app`, 'Name an export that is an app (createApp(…)) or a function that returns one.');
  }
  // Each app once, with every name it goes by.
  const apps = new Map<McpApp, string[]>();
  for (const name of exported) {
    const value = exports[name];
    if (isApp(value)) apps.set(value, [...(apps.get(value) ?? []), name]);
  }
  if (apps.size === 1) return [...apps.keys()][0];
  if (apps.size > 1) {
    const first = [...apps.values()].map((aliases) => aliases[0]);
    throw new CliError(`${entry} exports ${apps.size} mcpkit apps: ${names(first)}`, `Choose one with --export <name>, e.g. --export ${first[0]}.`);
  }
  const factories = exported.filter((name) => isFactory(exports[name]) && (name === 'default' || FACTORY_NAME.test(name)));
  if (factories.length === 1) return callFactory(entry, factories[0], exports[factories[0]] as () => unknown);
  if (factories.length > 1)
    throw new CliError(
      `${entry} exports ${factories.length} app factories: ${names(factories)}`,
      `Choose one with --export <name>, e.g. --export ${factories[0]}.`,
    );
  throw new CliError(
    exported.length > 0 ? `${entry} exports no mcpkit app (it exports ${names(exported)})` : `${entry} exports nothing, so no mcpkit app`,
    exported.length > 0
      ? 'Export the app under any name (export const app = createApp(…)) or a factory named like createMyApp(); --export <name> picks a function of another name.'
      : 'Export the app (export const app = createApp(…)) from a module that does not serve it itself: mcpkit start serves it.',
  );
}
