import * as core from '@mcpkit/core';
import { TestClient } from '@mcpkit/testing';
import { transformSync as swc } from '@swc/core';
import * as classValidator from 'class-validator';
import { transformSync as esbuild } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { standardDecoratorCrashNote } from '../../../packages/core/src/decorators/standard-decorator-crash';

// The same decorated server compiled by each toolchain docs/runtimes.md names, then started: the
// ones that emit decorator metadata serve; the others stop with the start-up error that says
// what to write instead. (The runners themselves, Bun, tsx and Deno launched from another folder,
// are scripts/runtimes/toolchains.js's rows of the runtime matrix.)
const SOURCE = `
import { createApp, Tool } from '@mcpkit/core';
import { IsString, MinLength } from 'class-validator';
export class GreetInput {
  @IsString()
  @MinLength(1)
  name: string;
}
class Greeter {
  @Tool({ description: 'Says hello' })
  greet(input: GreetInput) {
    return 'Hello, ' + input.name + '!';
  }
}
export const build = () => createApp({ name: 'greeter', version: '1.0.0', providers: [Greeter] });
`;
/** The same, its input named: what a toolchain without design types needs. */
const EXPLICIT = SOURCE.replace("@Tool({ description: 'Says hello' })", "@Tool({ description: 'Says hello', input: GreetInput })");

const compilers: Record<string, (source: string) => string> = {
  tsc: (source) =>
    ts.transpileModule(source, {
      compilerOptions: {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.CommonJS,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        useDefineForClassFields: false,
      },
    }).outputText,
  'SWC with decoratorMetadata': (source) =>
    swc(source, {
      jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022' },
      module: { type: 'commonjs' },
    }).code,
  'SWC without decoratorMetadata': (source) =>
    swc(source, {
      jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true }, target: 'es2022' },
      module: { type: 'commonjs' },
    }).code,
  // What tsx and vitest run: esbuild's transform, with the tsconfig's experimentalDecorators.
  'esbuild (tsx, vitest)': (source) =>
    esbuild(source, { loader: 'ts', format: 'cjs', target: 'es2022', tsconfigRaw: { compilerOptions: { experimentalDecorators: true } } }).code,
  // The same without a tsconfig: standard (TC39) decorators.
  'esbuild without a tsconfig': (source) => esbuild(source, { loader: 'ts', format: 'cjs', target: 'es2022' }).code,
};

/** Runs compiled CommonJS in this realm (its Reflect carries reflect-metadata), with core and class-validator as its imports. */
function load(code: string): { build: () => core.McpApp; app?: core.McpApp } {
  const modules: Record<string, unknown> = { '@mcpkit/core': core, 'class-validator': classValidator };
  const module = { exports: {} as Record<string, unknown> };
  const require = (name: string) => {
    if (!(name in modules)) throw new Error(`unexpected import ${name}`);
    return modules[name];
  };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the compiled module under test, as a loader runs it
  new Function('require', 'module', 'exports', code)(require, module, module.exports);
  return module.exports as { build: () => core.McpApp; app?: core.McpApp };
}

/** The server started from `code`: its greeting of Ada, or what stopped it. */
async function start(code: string): Promise<{ text?: string; schema?: unknown; error?: unknown }> {
  let app: core.McpApp;
  try {
    const loaded = load(code);
    app = loaded.app ?? loaded.build();
  } catch (error) {
    return { error };
  }
  const client = await TestClient.connect(app);
  try {
    const [tool] = await client.listTools();
    const result = await client.callTool('greet', { name: 'Ada' });
    return { text: (result.content[0] as { text: string }).text, schema: tool.inputSchema };
  } finally {
    client.close();
  }
}

const SCHEMA = { type: 'object', properties: { name: { type: 'string', minLength: 1 } }, required: ['name'] };

describe('decorator toolchains: the server starts, or says what to change', () => {
  it.each(['tsc', 'SWC with decoratorMetadata'])('%s: the input DTO is read from the design types', async (name) => {
    expect(await start(compilers[name](SOURCE))).toEqual({ text: 'Hello, Ada!', schema: SCHEMA });
  });

  it.each(['SWC without decoratorMetadata', 'esbuild (tsx, vitest)'])('%s: no design types, the start-up error names @Tool({ input })', async (name) => {
    const { error } = await start(compilers[name](SOURCE));
    expect(error).toBeInstanceOf(core.DefinitionError);
    expect((error as core.DefinitionError).code).toBe(core.DefinitionErrorCode.MISSING_DESIGN_METADATA);
    expect((error as core.DefinitionError).fixes.join('\n')).toContain('@Tool({ input: MyInput })');
  });

  it.each(['SWC without decoratorMetadata', 'esbuild (tsx, vitest)'])('%s: with the input named, it serves', async (name) => {
    expect(await start(compilers[name](EXPLICIT))).toEqual({ text: 'Hello, Ada!', schema: SCHEMA });
  });

  it("esbuild (tsx, vitest): docs/runtimes.md's example, its input named, serves", async () => {
    const example = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'examples', 'runtimes.example.ts'), 'utf8');
    expect(await start(compilers['esbuild (tsx, vitest)'](example))).toEqual({ text: 'Hello, Ada!', schema: SCHEMA });
  });

  it('esbuild without a tsconfig: class-validator fails on the standard decorators, and the crash note says why', async () => {
    const { error } = await start(compilers['esbuild without a tsconfig'](SOURCE));
    expect(error).toBeInstanceOf(TypeError);
    expect(standardDecoratorCrashNote(error)).toContain('standard (TC39) decorators');
  });

  it("esbuild without a tsconfig, a tool without a DTO: mcpkit's own start-up error", async () => {
    const code = compilers['esbuild without a tsconfig'](
      "import { Tool } from '@mcpkit/core';\nexport class Clock { @Tool({ input: null }) now() { return 'noon'; } }\n",
    );
    expect(() => load(code)).toThrow(/compiled as a standard \(TC39\) decorator/);
  });
});
