import { IsString } from 'class-validator';
import { createApp } from '../server/create-app';
import { Tool } from '../decorators/tool.decorator';
import type { Connection } from '../dispatcher/connection';
import { schemasHash, type PrecompiledValidators } from './precompiled-validators';
import { ValidatorFactory } from './validator-factory';

/** Runs `body` as on Cloudflare Workers, where `new Function` throws (ajv logs the code it could not make). */
function withoutCodeGeneration<T>(body: () => T): T {
  const original = globalThis.Function;
  const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  globalThis.Function = function refused() {
    throw new EvalError('Code generation from strings disallowed for this context');
  } as unknown as FunctionConstructor;
  const restore = () => ((globalThis.Function = original), logged.mockRestore());
  try {
    const result = body();
    if (result instanceof Promise) return result.finally(restore) as T;
    restore();
    return result;
  } catch (error) {
    restore();
    throw error;
  }
}

const LATE = /first met after start-up[\s\S]*forbids generating code/;

class Note {
  @IsString()
  text: string;
}

class Late {
  @Tool({ description: 'Added after start-up' })
  note(input: Note) {
    return input.text;
  }
}

describe('a schema met after start-up where code generation is refused (Workers)', () => {
  const module: PrecompiledValidators = { schemasHash: schemasHash([]) };

  it('names the cause, as a -32603 whose message says it, when first used', () => {
    const factory = new ValidatorFactory(module);
    factory.seal();
    const check = factory.valueChecker({ type: 'object', properties: { n: { type: 'integer' } } }, true);
    const failure = withoutCodeGeneration(() => {
      try {
        check({ n: 1 });
      } catch (error) {
        return error as { code?: number; message: string; cause?: unknown };
      }
      throw new Error('no error');
    });
    expect(failure.code).toBe(-32603);
    expect(failure.message).toMatch(LATE);
    expect(failure.cause).toBeInstanceOf(EvalError);
  });

  it('names it when a raw schema added later is checked against the meta-schema', () => {
    const factory = new ValidatorFactory(module);
    factory.seal();
    expect(() => withoutCodeGeneration(() => factory.compileLazily({ type: 'object', if: { required: ['a'] }, then: { required: ['b'] } }))).toThrow(LATE);
  });

  it('leaves any other compile error as it is', () => {
    const factory = new ValidatorFactory(module);
    factory.seal();
    expect(() => factory.compile({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } })).toThrow(/can't resolve reference/);
  });

  it('answers the call of a tool added to a dynamic app with that message', async () => {
    const app = createApp({ name: 'late', version: '1', providers: [], dynamic: true, validators: module, logger: undefined });
    app.addProviders([Late]);
    const connection: Connection = app.connect({ kind: 'memory' });
    await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
    const call = () => connection.receive({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'note', arguments: { text: 'hi' } } });
    const answer = (await withoutCodeGeneration(call)) as { error?: { code: number; message: string } };
    expect(answer.error?.code).toBe(-32603);
    expect(answer.error?.message).toMatch(LATE);
  });
});
