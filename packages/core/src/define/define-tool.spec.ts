import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import { Tool } from '../decorators/tool.decorator';
import type { ToolOptions } from '../decorators/decorator-options';
import type { RequestContext } from '../model/request-context';
import { HandlerContext } from '../dispatcher/handler-context';
import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { request, startupError } from '../../test/memory-app';
import type { Provider } from '../scanner/scan-providers';
import { createApp } from '../server/create-app';
import { defineTool } from './define-tool';

class SearchInput {
  @IsString()
  query: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  limit?: number;
}

class Hits {
  @IsInt()
  count: number;
}

class Undecorated {
  query: string;
}

async function result(providers: Provider[], method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>> {
  return (await request(providers, method, params)).result as Record<string, unknown>;
}

/** The decorated form of `options`: a class whose `search` method is the handler (its parameter type names no DTO, as a definition has none). */
function decorated(options: ToolOptions, handler: (input: never, ctx: RequestContext) => unknown): Provider {
  class Decorated {
    @Tool(options)
    search(input: object, ctx: RequestContext) {
      return handler(input as never, ctx);
    }
  }
  return Decorated;
}

const countHits = (input: { query?: string }) => ({ count: input.query?.length ?? 0 });

describe('defineTool', () => {
  describe('tools/list', () => {
    const optionSets: Array<[string, ToolOptions]> = [
      [
        'every common option, a DTO, output and annotations',
        {
          name: 'search',
          title: 'Search',
          description: 'Finds notes',
          icons: [{ src: 'https://example.com/i.png', mimeType: 'image/png' }],
          _meta: { 'example.com/tier': 'free' },
          input: SearchInput,
          output: Hits,
          annotations: { readOnlyHint: true, openWorldHint: false },
          timeoutMs: 5_000,
        },
      ],
      ['strict input and strict output with text', { name: 'search', input: SearchInput, strict: true, output: Hits, strictOutput: true, text: () => 'hits' }],
      ['a raw JSON Schema', { name: 'search', inputSchema: { type: 'object', properties: { query: { type: 'string', minLength: 2 } }, required: ['query'] } }],
      ['no input', { name: 'search', input: null }],
      [
        'a raw output schema',
        { name: 'search', input: null, outputSchema: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] } },
      ],
    ];

    it.each(optionSets)('publishes what the same decorated tool publishes: %s', async (_, options) => {
      const fromDecorator = await result([decorated(options, countHits)], 'tools/list');
      const { input, ...rest } = options;
      // `input: null` is how a decorated method says "no input"; a defined tool says it by leaving input out.
      const fromDefine = await result([defineTool({ ...rest, name: 'search', ...(input ? { input } : {}) }, countHits)], 'tools/list');
      expect(fromDefine).toEqual(fromDecorator);
      expect((fromDefine.tools as unknown[]).length).toBe(1);
    });
  });

  describe('tools/call', () => {
    it('hands the handler the validated DTO instance and the request context', async () => {
      const seen: unknown[] = [];
      const tool = defineTool({ name: 'search', input: SearchInput }, (input, ctx) => {
        seen.push(input, ctx);
        return `${input.query}:${input.limit ?? '-'}:${String(ctx.requestId)}`;
      });
      expect(await result([tool], 'tools/call', { name: 'search', arguments: { query: 'ada', extra: true } })).toEqual({
        content: [{ type: 'text', text: 'ada:-:1' }],
      });
      expect(seen[0]).toBeInstanceOf(SearchInput);
      expect(seen[0]).toEqual({ query: 'ada' });
      expect(seen[1]).toBeInstanceOf(HandlerContext);
    });

    it.each([
      ['a missing field', {}],
      ['a wrong type', { query: 1 }],
      ['a broken constraint', { query: 'a', limit: 0 }],
    ])('answers %s with the decorated tool’s isError result', async (_, args) => {
      const options: ToolOptions = { name: 'search', input: SearchInput, output: Hits };
      const fromDecorator = await result([decorated(options, countHits)], 'tools/call', { name: 'search', arguments: args });
      const fromDefine = await result([defineTool({ name: 'search', input: SearchInput, output: Hits }, countHits)], 'tools/call', {
        name: 'search',
        arguments: args,
      });
      expect(fromDefine).toEqual(fromDecorator);
      expect(fromDefine.isError).toBe(true);
      expect(JSON.stringify(fromDefine.content)).toContain('Invalid arguments for tool search');
    });

    it('validates against a raw JSON Schema and hands over the arguments object', async () => {
      const tool = defineTool({ name: 'echo', inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } }, (input) =>
        JSON.stringify(input),
      );
      expect(await result([tool], 'tools/call', { name: 'echo', arguments: { n: 2 } })).toEqual({ content: [{ type: 'text', text: '{"n":2}' }] });
      expect(await result([tool], 'tools/call', { name: 'echo', arguments: { n: 'x' } })).toMatchObject({ isError: true });
    });

    it('without input strips what it is sent and hands over an empty object', async () => {
      const tool = defineTool({ name: 'ping' }, (input) => `pong ${JSON.stringify(input)}`);
      expect(await result([tool], 'tools/call', { name: 'ping', arguments: { x: 1 } })).toEqual({ content: [{ type: 'text', text: 'pong {}' }] });
    });

    it('checks structured output against output, as a decorated tool does', async () => {
      const good = defineTool({ name: 'count', output: Hits }, () => ({ count: 3 }));
      expect(await result([good], 'tools/call', { name: 'count' })).toEqual({
        structuredContent: { count: 3 },
        content: [{ type: 'text', text: '{"count":3}' }],
      });
      const bad = () => ({ count: 'three' });
      const fromDefine = await result([defineTool({ name: 'search', output: Hits }, bad)], 'tools/call', { name: 'search' });
      expect(fromDefine).toEqual(await result([decorated({ output: Hits, input: null }, bad)], 'tools/call', { name: 'search' }));
      expect(fromDefine.isError).toBe(true);
    });

    it('checks structured output against a raw outputSchema as against an output DTO', async () => {
      const outputSchema = { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] };
      const good = defineTool({ name: 'count', outputSchema, text: (hits: { count: number }) => `${hits.count} hits` }, () => ({ count: 3 }));
      expect(await result([good], 'tools/call', { name: 'count' })).toEqual({ structuredContent: { count: 3 }, content: [{ type: 'text', text: '3 hits' }] });
      const bad = () => ({ count: 'three' });
      const fromSchema = await result([defineTool({ name: 'search', outputSchema }, bad)], 'tools/call', { name: 'search' });
      expect(fromSchema).toEqual(await result([defineTool({ name: 'search', output: Hits }, bad)], 'tools/call', { name: 'search' }));
      expect(fromSchema.isError).toBe(true);
      // A finished error result passes unchecked, as with an output DTO.
      const failing = defineTool({ name: 'fail', outputSchema }, () => ({ isError: true, content: [{ type: 'text', text: 'upstream said 404' }] }));
      expect(await result([failing], 'tools/call', { name: 'fail' })).toEqual({ isError: true, content: [{ type: 'text', text: 'upstream said 404' }] });
    });
  });

  describe('start-up errors', () => {
    it('checks nothing but its arguments when called; createApp checks the rest', () => {
      const tool = defineTool({ name: 'has space' }, () => 'x');
      expect(tool).toEqual({ kind: 'tool', name: 'has space' });
      expect(startupError([tool]).code).toBe(DefinitionErrorCode.INVALID_TOOL_NAME);
    });

    it.each<[string, ToolOptions, string]>([
      ['a bad name', { name: 'has space' }, DefinitionErrorCode.INVALID_TOOL_NAME],
      ['an input that is not a class', { name: 'search', input: 'SearchInput' as never }, DefinitionErrorCode.INVALID_OPTIONS],
      ['an input without class-validator metadata', { name: 'search', input: Undecorated }, DefinitionErrorCode.DTO_WITHOUT_METADATA],
      ['both input and inputSchema', { name: 'search', input: SearchInput, inputSchema: { type: 'object' } }, DefinitionErrorCode.INVALID_OPTIONS],
      ['a raw schema that is not an object', { name: 'search', inputSchema: { type: 'string' } }, DefinitionErrorCode.SCHEMA_ROOT_NOT_OBJECT],
      ['an invalid raw schema', { name: 'search', inputSchema: { type: 'object', properties: { a: { type: 'nope' } } } }, DefinitionErrorCode.INVALID_SCHEMA],
      ['text without output', { name: 'search', input: SearchInput, text: () => 'x' }, DefinitionErrorCode.INVALID_OPTIONS],
      ['both output and outputSchema', { name: 'search', input: null, output: Hits, outputSchema: { type: 'object' } }, DefinitionErrorCode.INVALID_OPTIONS],
      [
        'a raw output schema that is not an object',
        { name: 'search', input: null, outputSchema: { type: 'array' } },
        DefinitionErrorCode.SCHEMA_ROOT_NOT_OBJECT,
      ],
      [
        'an invalid raw output schema',
        { name: 'search', input: null, outputSchema: { type: 'object', properties: { a: { type: 'nope' } } } },
        DefinitionErrorCode.INVALID_SCHEMA,
      ],
      ['a bad timeout', { name: 'search', input: SearchInput, timeoutMs: -1 }, DefinitionErrorCode.INVALID_OPTIONS],
    ])('rejects %s with the decorator’s error, naming the call', (_, options, code) => {
      const fromDecorator = startupError([decorated(options, countHits)]);
      const fromDefine = startupError([defineTool({ ...options, name: options.name! } as never, countHits)]);
      expect(fromDefine.code).toBe(code);
      expect(fromDecorator.code).toBe(code);
      expect(fromDefine.problem).toBe(fromDecorator.problem.replace(/(@Tool on )?Decorated\.search/, `defineTool(${JSON.stringify(options.name)})`));
      expect(fromDefine.message).toContain('Possible fixes:');
    });

    it('clashes with a decorated tool of the same name as two decorated tools do', () => {
      const error = startupError([decorated({ name: 'search', input: SearchInput }, countHits), defineTool({ name: 'search', input: SearchInput }, countHits)]);
      expect(error.code).toBe(DefinitionErrorCode.DUPLICATE_NAME);
      expect(error.problem).toBe('Tool "search" is declared twice: by Decorated.search and by defineTool("search").');
      expect(startupError([defineTool({ name: 'a' }, countHits), defineTool({ name: 'a' }, countHits)]).code).toBe(DefinitionErrorCode.DUPLICATE_NAME);
    });

    it('throws at the call without a handler, a name or options', () => {
      const thrown = (define: () => unknown): DefinitionError => {
        try {
          define();
        } catch (error) {
          if (error instanceof DefinitionError) return error;
          throw error;
        }
        throw new Error('did not throw');
      };
      const noHandler = thrown(() => defineTool({ name: 'search' }, undefined as never));
      expect(noHandler.code).toBe(DefinitionErrorCode.NOT_A_METHOD);
      expect(noHandler.problem).toBe('defineTool("search") has no handler: its second argument is undefined, not a function.');
      expect(thrown(() => defineTool({} as never, () => 'x')).code).toBe(DefinitionErrorCode.INVALID_OPTIONS);
      expect(thrown(() => defineTool({ name: '' }, () => 'x')).code).toBe(DefinitionErrorCode.INVALID_OPTIONS);
      expect(thrown(() => defineTool(undefined as never, () => 'x')).code).toBe(DefinitionErrorCode.INVALID_OPTIONS);
      // A DTO class where the options go: named, not printed (String(class) is its whole source).
      class Amount {
        value = 1;
      }
      const classGiven = thrown(() => defineTool(Amount as never, () => 'x'));
      expect(classGiven.code).toBe(DefinitionErrorCode.INVALID_OPTIONS);
      expect(classGiven.problem).toBe('defineTool was called with the class Amount instead of its options.');
      expect(classGiven.fixes.join('\n')).toContain('input: Amount');
    });
  });

  it('is added at run time like a decorated provider', async () => {
    const app = createApp({ name: 't', version: '1', providers: [], dynamic: true });
    app.addProviders([defineTool({ name: 'late' }, () => 'here')]);
    expect(() => app.addProviders([defineTool({ name: 'late' }, () => 'again')])).toThrow(DefinitionError);
    const connection = app.connect({ kind: 'memory' });
    await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
    expect(await connection.receive({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'late' } })).toMatchObject({
      result: { content: [{ text: 'here' }] },
    });
  });
});
