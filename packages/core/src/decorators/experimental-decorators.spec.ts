import vm from 'node:vm';
import ts from 'typescript';
import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { Field } from './field.decorator';
import { Tool } from './tool.decorator';
import { UseGuards } from './use-guards.decorator';

// What a compiler that did not see `experimentalDecorators` makes of a server: TypeScript 5's
// standard (TC39) decorators, as tsx, esbuild or Bun emit them when they miss the tsconfig.
const SOURCE = `
import { Field, Tool, UseGuards } from '@mcpkit/core';
export function tool() { class Greeter { @Tool() ping() { return 'pong'; } } return Greeter; }
export function field() { class Input { @Field({ description: 'who' }) name = ''; } return Input; }
export function guardedClass() { @UseGuards({ canActivate: () => true }) class Notes {} return Notes; }
`;

function compiledAsStandard(): Record<string, () => unknown> {
  const { outputText } = ts.transpileModule(SOURCE, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, experimentalDecorators: false },
  });
  const exports: Record<string, () => unknown> = {};
  const load = (name: string) => {
    if (name !== '@mcpkit/core') throw new Error(`unexpected import ${name}`);
    return { Field, Tool, UseGuards };
  };
  (vm.runInThisContext(`(function (require, exports) {${outputText}\n})`) as (load: unknown, into: unknown) => void)(load, exports);
  return exports;
}

function thrown(run: () => unknown): DefinitionError {
  try {
    run();
  } catch (error) {
    return error as DefinitionError;
  }
  throw new Error('nothing was thrown');
}

describe('decorators compiled as standard (TC39) decorators', () => {
  const compiled = compiledAsStandard();

  it.each([
    ['tool', '@Tool on method ping'],
    ['field', '@Field on field name'],
    ['guardedClass', '@UseGuards on class Notes'],
  ])('%s: a start-up error names the decorator, the member, the cause and the fix', (name, where) => {
    const error = thrown(compiled[name]);
    expect(error).toBeInstanceOf(DefinitionError);
    expect(error.code).toBe(DefinitionErrorCode.STANDARD_DECORATORS);
    expect(error.problem).toContain(where);
    expect(error.problem).toContain('standard (TC39) decorator');
    expect(error.fixes[0]).toContain('"experimentalDecorators": true');
  });

  it('leaves experimental decorators alone', () => {
    expect(() => {
      class Greeter {
        @Tool()
        ping(): string {
          return 'pong';
        }
      }
      return Greeter;
    }).not.toThrow();
  });
});
