import { createApp, DefinitionError, DefinitionErrorCode, Tool, type McpApp } from '@mcpkit/core';
import { IsString } from 'class-validator';
import { CliError, EXIT } from './cli-error';
import { loadApp } from './load-app';

class Weather {
  @Tool({ input: null })
  forecast(): string {
    return 'sunny';
  }
}

class Clock {
  @Tool({ input: null })
  now(): string {
    return 'noon';
  }
}

const weatherApp = createApp({ name: 'weather', version: '1.0.0', providers: [Weather] });
const clockApp = createApp({ name: 'clock', version: '1.0.0', providers: [Clock] });
const mustNotRun = () => {
  throw new Error('a function that is not a factory was called');
};

let next = 0;
/** A module at a path of its own, with these exports, for loadApp to require. */
function entryExporting(exports: Record<string, unknown>): string {
  const path = `/virtual/load-app-spec-${next++}.js`;
  jest.doMock(path, () => exports, { virtual: true });
  return path;
}

/** A module whose loading throws `error`, as a compiled app module does while it is evaluated. */
function entryThrowing(error: unknown): string {
  const path = `/virtual/load-app-spec-${next++}.js`;
  jest.doMock(
    path,
    () => {
      throw error;
    },
    { virtual: true },
  );
  return path;
}

/** What loading threw, checked to be a `kind` (a CliError unless said). */
function failure<E extends Error = CliError>(load: () => McpApp, kind: abstract new (...args: never[]) => E = CliError as never): E {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(kind);
    return error as E;
  }
  throw new Error('loadApp did not throw');
}

describe('loadApp', () => {
  describe('without --export', () => {
    it('takes the one app the module exports, whatever its name, calling nothing else', () => {
      const entry = entryExporting({ weatherApp, helper: mustNotRun, createReport: mustNotRun, VERSION: '1', Weather });
      expect(loadApp(entry)).toBe(weatherApp);
    });

    it('counts an app exported under two names (app and default) once', () => {
      expect(loadApp(entryExporting({ app: weatherApp, default: weatherApp }))).toBe(weatherApp);
    });

    it('takes a module whose exports are the app', () => {
      expect(loadApp(entryExporting(weatherApp as unknown as Record<string, unknown>))).toBe(weatherApp);
    });

    it('prefers an exported app to factories, without calling them', () => {
      expect(loadApp(entryExporting({ weatherApp, createClockApp: mustNotRun }))).toBe(weatherApp);
    });

    it('calls the one factory named like createMyApp, or the default export', () => {
      expect(loadApp(entryExporting({ createWeatherApp: () => weatherApp, helper: mustNotRun }))).toBe(weatherApp);
      expect(loadApp(entryExporting({ default: () => clockApp }))).toBe(clockApp);
    });

    it('refuses several apps, naming them and suggesting --export', () => {
      const error = failure(() => loadApp(entryExporting({ weatherApp, clockApp, createThirdApp: mustNotRun })));
      expect(error.message).toMatch(/exports 2 mcpkit apps: weatherApp and clockApp$/);
      expect(error.hint).toBe('Choose one with --export <name>, e.g. --export weatherApp.');
      expect(error.exitCode).toBe(EXIT.USAGE);
    });

    it('refuses several factories, naming them and suggesting --export, without calling any', () => {
      const error = failure(() => loadApp(entryExporting({ createWeatherApp: mustNotRun, createClockApp: mustNotRun })));
      expect(error.message).toMatch(/exports 2 app factories: createWeatherApp and createClockApp$/);
      expect(error.hint).toContain('--export createWeatherApp');
    });

    it('says what the module exports when none of it is an app', () => {
      const error = failure(() => loadApp(entryExporting({ helper: mustNotRun, VERSION: '1', Weather })));
      expect(error.message).toMatch(/exports no mcpkit app \(it exports helper, VERSION and Weather\)$/);
      expect(error.hint).toContain('--export <name>');
      expect(error.exitCode).toBe(EXIT.USAGE);
    });

    it('says a module that exports nothing exports nothing', () => {
      const error = failure(() => loadApp(entryExporting({})));
      expect(error.message).toMatch(/exports nothing, so no mcpkit app$/);
      expect(error.hint).toContain('export const app = createApp(…)');
    });

    it('does not take a class for a factory', () => {
      expect(failure(() => loadApp(entryExporting({ default: Weather }))).message).toMatch(/exports no mcpkit app/);
    });
  });

  describe('with --export', () => {
    it('takes the named app among several', () => {
      expect(loadApp(entryExporting({ weatherApp, clockApp }), { export: 'clockApp' })).toBe(clockApp);
    });

    it('calls the named function, whatever its name', () => {
      expect(loadApp(entryExporting({ build: () => clockApp, weatherApp }), { export: 'build' })).toBe(clockApp);
    });

    it('refuses a name the module does not export, listing what it does', () => {
      const error = failure(() => loadApp(entryExporting({ weatherApp, clockApp }), { export: 'nope' }));
      expect(error.message).toMatch(/has no export named nope$/);
      expect(error.hint).toBe('It exports weatherApp and clockApp.');
    });

    it('refuses an export that is not an app, nor returns one', () => {
      expect(failure(() => loadApp(entryExporting({ VERSION: '1' }), { export: 'VERSION' })).message).toMatch(/VERSION in .* is not an mcpkit app$/);
      expect(failure(() => loadApp(entryExporting({ describe: () => 'text' }), { export: 'describe' })).message).toMatch(
        /describe\(\) in .* does not return an mcpkit app$/,
      );
      expect(failure(() => loadApp(entryExporting({ Weather }), { export: 'Weather' })).message).toMatch(/is not an mcpkit app$/);
    });

    it('refuses a factory that returns a promise, saying why', () => {
      const error = failure(() => loadApp(entryExporting({ load: async () => weatherApp }), { export: 'load' }));
      expect(error.message).toMatch(/load\(\) in .* returns a promise, not an mcpkit app$/);
      expect(error.hint).toContain('synchronously');
    });
  });

  describe('a factory that throws', () => {
    it('passes a definition error on as it is (printed with its code and fixes)', () => {
      const broken = new DefinitionError(DefinitionErrorCode.INVALID_TOOL_NAME, 'bad name', ['Use 1 to 128 characters']);
      const entry = entryExporting({
        createBrokenApp: () => {
          throw broken;
        },
      });
      expect(() => loadApp(entry)).toThrow(broken);
    });

    it('reports any other error with where it was thrown, exit 1', () => {
      const error = failure(() =>
        loadApp(
          entryExporting({
            createWeatherApp: () => {
              throw new Error('no API key');
            },
          }),
        ),
      );
      expect(error.message).toMatch(/^createWeatherApp\(\) in .* threw no API key \(at /);
      expect(error.exitCode).toBe(EXIT.FAILURE);
    });
  });

  describe('a DTO compiled without experimentalDecorators', () => {
    /** What class-validator throws for a field decorator called as a standard one, `(undefined, context)`: a real crash, not a copy of its words. */
    function standardDecoratorCrash(): unknown {
      try {
        (IsString() as unknown as (value: undefined, context: object) => void)(undefined, { kind: 'field', name: 'name' });
      } catch (error) {
        return error;
      }
      throw new Error('class-validator did not throw');
    }

    it('names the cause and the fix when loading the module crashes inside class-validator', () => {
      const error = failure(() => loadApp(entryThrowing(standardDecoratorCrash())), DefinitionError);
      expect(error.code).toBe(DefinitionErrorCode.STANDARD_DECORATORS);
      expect(error.problem).toContain('compiled as standard (TC39) decorators');
      expect(error.fixes.join('\n')).toContain('"experimentalDecorators": true and "emitDecoratorMetadata": true');
    });

    it('names them when a factory defines the DTO and crashes', () => {
      const crash = standardDecoratorCrash();
      const entry = entryExporting({
        createWeatherApp: () => {
          throw crash;
        },
      });
      expect(failure(() => loadApp(entry), DefinitionError).code).toBe(DefinitionErrorCode.STANDARD_DECORATORS);
    });

    it('leaves any other TypeError to the plain report', () => {
      const error = failure(() => loadApp(entryThrowing(new TypeError("Cannot read properties of undefined (reading 'constructor')"))));
      expect(error.message).toMatch(/it threw Cannot read properties of undefined/);
    });
  });

  describe('a module that does not load', () => {
    it.each(['Cannot use import statement outside a module', "Unexpected token 'export'"])(
      'ES module output in a CommonJS package (%s) names "type": "module" and the tsconfig, not the build',
      (message) => {
        const error = failure(() => loadApp(entryThrowing(new SyntaxError(message))));
        expect(error.message).toContain('it is an ES module');
        expect(error.hint).toContain('"type": "module"');
        expect(error.hint).toContain('"module": "nodenext"');
        expect(error.exitCode).toBe(EXIT.FAILURE);
      },
    );

    it('any other syntax error still says to build first', () => {
      const error = failure(() => loadApp(entryThrowing(new SyntaxError('Unexpected token }'))));
      expect(error.hint).toContain('run npm run build first');
    });
  });
});
