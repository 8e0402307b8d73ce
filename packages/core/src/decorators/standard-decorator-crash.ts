import { STANDARD_DECORATOR_FIXES } from './experimental-decorators';

// class-validator's and class-transformer's decorators read `target.constructor`: called as a
// standard (TC39) decorator, `(undefined, context)`, they throw while the DTO class is defined,
// before any of mcpkit's decorators runs and can say why. V8 and JavaScriptCore word it apart;
// reflect-metadata, asked by class-transformer's @Type about an undefined target, says nothing.
const UNDEFINED_TARGET = /^$|reading 'constructor'|evaluating '\w+\.constructor'|undefined is not an object/;
const DECORATOR_LIBRARIES = /[/\\]class-(validator|transformer)[/\\@]/;
const NOTE = Symbol.for('mcpkit.standardDecoratorNote');

/**
 * The note to print when `error` is class-validator or class-transformer failing on decorators
 * compiled as standard ones (a runner that did not find the tsconfig); undefined for any other.
 */
export function standardDecoratorCrashNote(error: unknown): string | undefined {
  if (!(error instanceof TypeError) || !UNDEFINED_TARGET.test(error.message) || !DECORATOR_LIBRARIES.test(error.stack ?? '')) return undefined;
  return [
    'mcpkit: this crash is a DTO whose decorators were compiled as standard (TC39) decorators:',
    "class-validator's, class-transformer's and mcpkit's decorators are TypeScript's experimental decorators, with the design types they emit.",
    ...STANDARD_DECORATOR_FIXES.map((fix) => `  - ${fix}`),
  ].join('\n');
}

function explain(error: unknown): void {
  const note = standardDecoratorCrashNote(error);
  // Once per error: two copies of core in one process both listen.
  if (note === undefined || (error as Record<symbol, unknown>)[NOTE] === true) return;
  (error as Record<symbol, unknown>)[NOTE] = true;
  process.stderr.write(`${note}\n`);
}

/**
 * Adds the note above to such a crash. A monitor changes nothing else: the process still ends
 * with its runtime's own report. Runtimes without `process` (Workers without nodejs_compat) get none.
 */
export function watchForStandardDecoratorCrash(): void {
  if (typeof process === 'undefined' || typeof process.on !== 'function' || typeof process.listeners !== 'function') return;
  if (process.listeners('uncaughtExceptionMonitor').some((listener) => listener.name === explain.name)) return;
  process.on('uncaughtExceptionMonitor', explain);
}
