import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { STANDARD_DECORATOR_FIXES } from './experimental-decorators';

// class-validator's and class-transformer's decorators read `target.constructor`: called as a
// standard (TC39) decorator, `(undefined, context)`, they throw while the DTO class is defined,
// before any of mcpkit's decorators runs and can say why. V8 and JavaScriptCore word it apart;
// reflect-metadata, asked by class-transformer's @Type about an undefined target, says nothing.
const UNDEFINED_TARGET = /^$|reading 'constructor'|evaluating '\w+\.constructor'|undefined is not an object/;
const DECORATOR_LIBRARIES = /[/\\]class-(validator|transformer)[/\\@]/;
const NOTE = Symbol.for('mcpkit.standardDecoratorNote');
// Marks the process once for every copy of core in it (two in node_modules, a bundle beside a
// package): a listener's name says nothing (a minifier renames it, another library may share it).
const WATCHING = Symbol.for('mcpkit.standardDecoratorMonitor');

function isStandardDecoratorCrash(error: unknown): error is TypeError {
  return error instanceof TypeError && UNDEFINED_TARGET.test(error.message) && DECORATOR_LIBRARIES.test(error.stack ?? '');
}

/**
 * The note to print when `error` is class-validator or class-transformer failing on decorators
 * compiled as standard ones (a runner that did not find the tsconfig); undefined for any other.
 */
export function standardDecoratorCrashNote(error: unknown): string | undefined {
  if (!isStandardDecoratorCrash(error)) return undefined;
  return [
    'mcpkit: this crash is a DTO whose decorators were compiled as standard (TC39) decorators:',
    "class-validator's, class-transformer's and mcpkit's decorators are TypeScript's experimental decorators, with the design types they emit.",
    ...STANDARD_DECORATOR_FIXES.map((fix) => `  - ${fix}`),
  ].join('\n');
}

/**
 * The same diagnosis as a start-up error, for a loader that catches what loading an app module
 * threw (the mcpkit CLI, a test runner's set-up), where the process-wide note never runs: a
 * `DefinitionError` with code `MCPKIT_ERR_STANDARD_DECORATORS` and the fixes, or undefined when
 * `error` is any other failure.
 *
 * @example
 * try {
 *   require('./dist/app.js');
 * } catch (error) {
 *   throw explainStandardDecoratorCrash(error) ?? error;
 * }
 */
export function explainStandardDecoratorCrash(error: unknown): DefinitionError | undefined {
  if (!isStandardDecoratorCrash(error)) return undefined;
  return new DefinitionError(
    DefinitionErrorCode.STANDARD_DECORATORS,
    `a DTO's class-validator or class-transformer decorators were compiled as standard (TC39) decorators and threw while its class was defined (${error.message}); mcpkit's decorators and theirs are TypeScript's experimental decorators, with the design types they emit.`,
    [...STANDARD_DECORATOR_FIXES],
  );
}

function explain(error: unknown): void {
  // A monitor that throws would replace the crash being reported with its own: never.
  try {
    const note = standardDecoratorCrashNote(error);
    // Once per error, should two copies of core listen after all.
    if (note === undefined || (error as Record<symbol, unknown>)[NOTE] === true) return;
    (error as Record<symbol, unknown>)[NOTE] = true;
    // stderr only: in stdio mode stdout is the client's JSON-RPC stream.
    process.stderr.write(`${note}\n`);
  } catch {
    // Nothing to add: the runtime's own report follows.
  }
}

/**
 * Adds the note above to such a crash. A monitor changes nothing else: the process still ends
 * with its runtime's own report. Runtimes without `process` (Workers without nodejs_compat) get none.
 */
export function watchForStandardDecoratorCrash(): void {
  if (typeof process === 'undefined' || typeof process.on !== 'function') return;
  const marked = process as unknown as Record<symbol, unknown>;
  if (marked[WATCHING] === true) return;
  marked[WATCHING] = true;
  process.on('uncaughtExceptionMonitor', explain);
}
