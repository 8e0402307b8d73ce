import { IsString } from 'class-validator';
import { Expose, Type } from 'class-transformer';
import { standardDecoratorCrashNote, watchForStandardDecoratorCrash } from './standard-decorator-crash';

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

  it('listens once however often core loads, and prints the note once per error', () => {
    const ours = () => process.listeners('uncaughtExceptionMonitor').filter((listener) => listener.name === 'explain');
    const before = ours();
    watchForStandardDecoratorCrash();
    watchForStandardDecoratorCrash();
    const listeners = ours();
    expect(listeners).toHaveLength(1);
    const write = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const crash = crashOf(() => (IsString() as unknown as (value: undefined, context: object) => void)(undefined, STANDARD_FIELD));
      listeners[0](crash as Error, 'uncaughtException');
      listeners[0](crash as Error, 'uncaughtException');
      listeners[0](new TypeError('other'), 'uncaughtException');
      expect(write).toHaveBeenCalledTimes(1);
      expect(String(write.mock.calls[0][0])).toContain('mcpkit: this crash is a DTO');
    } finally {
      write.mockRestore();
      for (const listener of listeners) if (!before.includes(listener)) process.removeListener('uncaughtExceptionMonitor', listener);
    }
  });
});
