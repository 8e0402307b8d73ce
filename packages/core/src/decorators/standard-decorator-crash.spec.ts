import { IsString } from 'class-validator';
import { Expose, Type } from 'class-transformer';
import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { explainStandardDecoratorCrash, standardDecoratorCrashNote, watchForStandardDecoratorCrash } from './standard-decorator-crash';

/** What a DTO's field decorator throws when a runner compiled it as a standard (TC39) decorator. */
function crashOf(decorate: () => void): unknown {
  try {
    decorate();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

const STANDARD_FIELD = { kind: 'field', name: 'name' };

describe('the note on a crash of decorators compiled as standard ones', () => {
  it.each([
    ['class-validator', () => (IsString() as unknown as (value: undefined, context: object) => void)(undefined, STANDARD_FIELD)],
    ['class-transformer @Type', () => (Type(() => String) as unknown as (value: undefined, context: object) => void)(undefined, STANDARD_FIELD)],
    ['class-transformer @Expose', () => (Expose() as unknown as (value: undefined, context: object) => void)(undefined, STANDARD_FIELD)],
  ])('%s failing on (undefined, context) gets the cause and the fixes', (_library, decorate) => {
    const note = standardDecoratorCrashNote(crashOf(decorate));
    expect(note).toContain('standard (TC39) decorators');
    expect(note).toContain('"experimentalDecorators": true');
    expect(note).toContain('may not find that tsconfig');
    expect(note).toContain('@Tool({ input: MyInput })');
  });

  it('says nothing about any other crash', () => {
    const elsewhere = crashOf(() => (undefined as unknown as { constructor: unknown }).constructor);
    expect(standardDecoratorCrashNote(elsewhere)).toBeUndefined();
    expect(standardDecoratorCrashNote(new Error('boom'))).toBeUndefined();
    expect(standardDecoratorCrashNote('a string')).toBeUndefined();
  });

  it('is a start-up error with the same fixes for a loader that catches the crash, and nothing for any other error', () => {
    const crash = crashOf(() => (IsString() as unknown as (value: undefined, context: object) => void)(undefined, STANDARD_FIELD));
    const error = explainStandardDecoratorCrash(crash);
    expect(error).toBeInstanceOf(DefinitionError);
    expect(error?.code).toBe(DefinitionErrorCode.STANDARD_DECORATORS);
    expect(error?.problem).toContain((crash as Error).message);
    expect(error?.fixes.join('\n')).toContain('may not find that tsconfig');
    expect(explainStandardDecoratorCrash(new TypeError("Cannot read properties of undefined (reading 'constructor')"))).toBeUndefined();
    expect(explainStandardDecoratorCrash('a string')).toBeUndefined();
  });

  describe('the monitor', () => {
    const WATCHING = Symbol.for('mcpkit.standardDecoratorMonitor');
    const monitors = () => process.listeners('uncaughtExceptionMonitor');
    let before: ReturnType<typeof monitors>;
    beforeEach(() => {
      before = monitors();
      delete (process as unknown as Record<symbol, unknown>)[WATCHING];
    });
    afterEach(() => {
      for (const listener of monitors()) if (!before.includes(listener)) process.removeListener('uncaughtExceptionMonitor', listener);
      delete (process as unknown as Record<symbol, unknown>)[WATCHING];
    });
    const added = () => monitors().filter((listener) => !before.includes(listener));
    const standardCrash = () => crashOf(() => (IsString() as unknown as (value: undefined, context: object) => void)(undefined, STANDARD_FIELD));

    it('listens once however often core loads, two copies included, and prints the note once per error', () => {
      watchForStandardDecoratorCrash();
      watchForStandardDecoratorCrash();
      // A second copy of core (another folder of node_modules): its own module, its own function.
      jest.isolateModules(() =>
        (jest.requireActual('./standard-decorator-crash') as typeof import('./standard-decorator-crash')).watchForStandardDecoratorCrash(),
      );
      const listeners = added();
      expect(listeners).toHaveLength(1);
      const write = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
      const stdout = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
      try {
        const crash = standardCrash();
        listeners[0](crash as Error, 'uncaughtException');
        listeners[0](crash as Error, 'uncaughtException');
        listeners[0](new TypeError('other'), 'uncaughtException');
        listeners[0](new Error('boom'), 'unhandledRejection');
        expect(write).toHaveBeenCalledTimes(1);
        expect(String(write.mock.calls[0][0])).toContain('mcpkit: this crash is a DTO');
        // In stdio mode stdout is the protocol's: nothing goes there.
        expect(stdout).not.toHaveBeenCalled();
      } finally {
        write.mockRestore();
        stdout.mockRestore();
      }
    });

    it("is installed beside another library's monitor that happens to share its function's name", () => {
      process.on('uncaughtExceptionMonitor', function explain() {});
      watchForStandardDecoratorCrash();
      expect(added()).toHaveLength(2);
    });

    it('never throws, so the crash being reported stays the one Node reports', () => {
      watchForStandardDecoratorCrash();
      const [listener] = added();
      const write = jest.spyOn(process.stderr, 'write').mockImplementation(() => {
        throw new Error('EPIPE');
      });
      try {
        expect(() => listener(standardCrash() as Error, 'uncaughtException')).not.toThrow();
        const frozen = Object.freeze(standardCrash() as Error);
        write.mockImplementation(() => true);
        expect(() => listener(frozen, 'uncaughtException')).not.toThrow();
      } finally {
        write.mockRestore();
      }
    });
  });
});
