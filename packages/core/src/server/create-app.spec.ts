import { IsString } from 'class-validator';
import { Field } from '../decorators/field.decorator';
import { Tool } from '../decorators/tool.decorator';
import { Resource } from '../decorators/resource.decorator';
import { ResourceTemplate } from '../decorators/resource-template.decorator';
import { Prompt } from '../decorators/prompt.decorator';
import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { TOOL_METADATA } from '../metadata/metadata-keys';
import { createApp } from './create-app';
import type { Provider } from '../scanner/scan-providers';

class NameInput {
  @IsString()
  name: string;
}

class OtherInput {
  @IsString()
  other: string;
}

class Undecorated {
  name: string;
}

function definitionError(providers: Provider[]): DefinitionError {
  try {
    createApp({ name: 't', version: '1', providers });
  } catch (error) {
    if (error instanceof DefinitionError) return error;
    throw error;
  }
  throw new Error('createApp did not throw');
}

describe('createApp start-up checks', () => {
  it('rejects duplicate tool names across providers, naming both owners', () => {
    class A {
      @Tool()
      search(input: NameInput) {
        return input.name;
      }
    }
    class B {
      @Tool({ name: 'search' })
      find(input: NameInput) {
        return input.name;
      }
    }
    const error = definitionError([A, B]);
    expect(error.code).toBe(DefinitionErrorCode.DUPLICATE_NAME);
    expect(error.message).toContain('A.search');
    expect(error.message).toContain('B.find');
    expect(error.message).toContain('Possible fixes:');
  });

  it.each(['has space', 'comma,name', '', 'x'.repeat(129), 'ünïcode'])('rejects the tool name %j', (name) => {
    class A {
      @Tool({ name })
      run() {
        return 'x';
      }
    }
    const error = definitionError([A]);
    expect(error.code).toBe(DefinitionErrorCode.INVALID_TOOL_NAME);
    expect(error.fixes.join(' ')).toContain('A-Z, a-z, 0-9');
  });

  it('explains missing decorator metadata, the tsconfig first (core has loaded reflect-metadata by then), the reflect-metadata hint last', () => {
    class A {
      run(input: NameInput) {
        return input;
      }
    }
    // What a compiler without emitDecoratorMetadata (tsx, esbuild) leaves behind: the decorator, no design types.
    Reflect.defineMetadata(TOOL_METADATA, {}, A.prototype, 'run');
    const error = definitionError([A]);
    expect(error.code).toBe(DefinitionErrorCode.MISSING_DESIGN_METADATA);
    expect(error.fixes[0]).toContain('"emitDecoratorMetadata": true');
    expect(error.fixes[error.fixes.length - 1]).toContain("import 'reflect-metadata'");
  });

  it('rejects a DTO without class-validator metadata', () => {
    class A {
      @Tool()
      run(input: Undecorated) {
        return input.name;
      }
    }
    const error = definitionError([A]);
    expect(error.code).toBe(DefinitionErrorCode.DTO_WITHOUT_METADATA);
    expect(error.message).toContain('Undecorated');
    expect(error.fixes.join('\n')).toContain('@IsString()');
  });

  it('rejects an explicit input that disagrees with the parameter type', () => {
    class A {
      @Tool({ input: OtherInput })
      run(input: NameInput) {
        return input.name;
      }
    }
    expect(definitionError([A]).code).toBe(DefinitionErrorCode.INPUT_TYPE_MISMATCH);
  });

  it('rejects a first parameter that is not a class when no input is named', () => {
    class A {
      @Tool()
      run(input: { name: string }) {
        return input.name;
      }
    }
    expect(definitionError([A]).code).toBe(DefinitionErrorCode.INPUT_NOT_INFERABLE);
  });

  it('rejects a raw input schema whose root is not an object', () => {
    class A {
      @Tool({ inputSchema: { type: 'string' } })
      run() {
        return 'x';
      }
    }
    const error = definitionError([A]);
    expect(error.code).toBe(DefinitionErrorCode.SCHEMA_ROOT_NOT_OBJECT);
    expect(error.fixes.join('\n')).toContain('type: "object"');
  });

  it('rejects a raw input schema that is not valid JSON Schema', () => {
    class A {
      @Tool({ inputSchema: { type: 'object', properties: { a: { type: 'nope' } } } })
      run() {
        return 'x';
      }
    }
    expect(definitionError([A]).code).toBe(DefinitionErrorCode.INVALID_SCHEMA);
  });

  it('rejects, at start-up, a DTO whose raw @Field({ schema }) is not valid JSON Schema (input and output)', () => {
    class Input {
      @Field({ schema: { type: 'strin' } })
      name: string;
    }
    class B {
      @Tool({ input: Input })
      run() {
        return 'x';
      }
    }
    const input = definitionError([B]);
    expect(input.code).toBe(DefinitionErrorCode.INVALID_SCHEMA);
    expect(input.message).toContain('The schema of Input, with its @Field({ schema }) parts,');
    class Output {
      @Field({ schema: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } } })
      value: object;
    }
    class C {
      @Tool({ input: null, output: Output })
      run() {
        return { value: {} };
      }
    }
    expect(definitionError([C]).message).toContain('The schema of Output');
  });

  it.each(['notes://{id', 'notes://{a b}', 'no-scheme/{id}', 'notes://{id}/{id}'])('rejects the malformed URI template %j', (uriTemplate) => {
    class A {
      @ResourceTemplate({ uriTemplate })
      read() {
        return 'x';
      }
    }
    const error = definitionError([A]);
    expect(error.code).toBe(DefinitionErrorCode.MALFORMED_URI_TEMPLATE);
    expect(error.fixes.join('\n')).toContain('notes://{id}');
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects maxUriLength %p', (maxUriLength) => {
    expect(() => createApp({ name: 't', version: '1', providers: [], maxUriLength })).toThrow(
      expect.objectContaining({
        code: DefinitionErrorCode.INVALID_OPTIONS,
        problem: `createApp: option "maxUriLength" must be an integer ≥ 1 (got ${maxUriLength})`,
      }),
    );
  });

  it('rejects a resource URI without a scheme', () => {
    class A {
      @Resource({ uri: 'readme' })
      read() {
        return 'x';
      }
    }
    expect(definitionError([A]).code).toBe(DefinitionErrorCode.INVALID_URI);
  });

  it('rejects a prompt argument that is not a string', () => {
    class Count {
      @IsString()
      name: string;

      @IsString({ each: true })
      list: string[];
    }
    class A {
      @Prompt()
      p(args: Count) {
        return args.name;
      }
    }
    expect(definitionError([A]).code).toBe(DefinitionErrorCode.INVALID_PROMPT_ARGUMENT);
  });

  it('rejects decorators on things that are not methods', () => {
    expect(() => {
      class A {
        @Tool()
        get value() {
          return 1;
        }
      }
      return A;
    }).toThrow(DefinitionError);
  });

  it('rejects options without name, version or providers', () => {
    expect(() => createApp({} as never)).toThrow(DefinitionError);
  });

  it('uses resolve to make provider instances', () => {
    class A {
      constructor(readonly greeting: string) {}

      @Tool()
      hello() {
        return this.greeting;
      }
    }
    const resolve = jest.fn(() => new A('hi'));
    const app = createApp({ name: 't', version: '1', providers: [A], resolve });
    expect(resolve).toHaveBeenCalledWith(A);
    expect(app.map.tools.has('hello')).toBe(true);
  });

  it('freezes the app and its capability map entries', () => {
    class A {
      @Tool()
      hello() {
        return 'hi';
      }
    }
    const app = createApp({ name: 't', version: '1', providers: [A] });
    expect(Object.isFrozen(app)).toBe(true);
    expect(Object.isFrozen(app.map.tools.get('hello')!.entry)).toBe(true);
  });

  it('builds one schema and one parser per input class, shared by the tools that take it, and each strictness its own', async () => {
    class A {
      @Tool()
      one(input: NameInput) {
        return input.name;
      }

      @Tool()
      two(input: NameInput) {
        return input.name;
      }

      @Tool({ strict: true })
      three(input: NameInput) {
        return input.name;
      }
    }
    const app = createApp({ name: 't', version: '1', providers: [A] });
    const [one, two, three] = ['one', 'two', 'three'].map((name) => app.map.tools.get(name)!);
    expect(two.entry.inputSchema).toBe(one.entry.inputSchema);
    expect(two.parseInput).toBe(one.parseInput);
    expect(three.entry.inputSchema).not.toBe(one.entry.inputSchema);
    expect(three.entry.inputSchema).toMatchObject({ additionalProperties: false });
    expect(one.entry.inputSchema).not.toHaveProperty('additionalProperties');
    // A second app reads the class again: nothing is shared between apps.
    const other = createApp({ name: 't', version: '1', providers: [A] });
    expect(other.map.tools.get('one')!.parseInput).not.toBe(one.parseInput);
    expect(await one.parseInput({ name: 'x', extra: 1 })).toMatchObject({ ok: true });
    expect(await three.parseInput({ name: 'x', extra: 1 })).toMatchObject({ ok: false });
  });
});
