import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, MinLength, Validate, ValidateNested, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import pino from 'pino';
import { createApp } from '../server/create-app';
import { Field } from '../decorators/field.decorator';
import { Prompt } from '../decorators/prompt.decorator';
import { Resource } from '../decorators/resource.decorator';
import { ResourceTemplate } from '../decorators/resource-template.decorator';
import { Tool } from '../decorators/tool.decorator';
import { InvalidParamsError, McpError } from '../errors/mcp-error';
import { ToolError } from '../errors/tool-error';
import { audio, embeddedResource, image, resourceLink, text } from '../results/content';
import type { Connection } from './connection';
import type { HandlerContext } from './handler-context';

@ValidatorConstraint({ name: 'isEven' })
class IsEven implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'number' && value % 2 === 0;
  }

  defaultMessage(): string {
    return 'must be even';
  }
}

class Inner {
  @IsString()
  @MinLength(1)
  label: string;
}

class Input {
  @IsString()
  name: string;

  @IsOptional()
  @IsInt()
  count?: number;

  @Field({ nullable: true })
  @IsOptional()
  @IsString()
  note?: string | null;

  @IsOptional()
  @ValidateNested()
  @Type(() => Inner)
  inner?: Inner;
}

class EvenInput {
  @IsInt()
  @Validate(IsEven)
  n: number;
}

class Out {
  @IsString()
  greeting: string;

  @IsInt()
  length: number;
}

class TopicArgs {
  @Field({ description: 'What to talk about' })
  @IsString()
  topic: string;

  @IsOptional()
  @IsString()
  tone?: string;
}

const received: unknown[] = [];

class Handlers {
  @Tool()
  inspect(input: Input, ctx: HandlerContext) {
    received.push(input);
    return `${input.name}:${ctx.requestId}:${ctx.client.protocolVersion}:${ctx.transport.kind}`;
  }

  @Tool({ strict: true })
  strict(input: Input) {
    return input.name;
  }

  @Tool()
  even(input: EvenInput) {
    return String(input.n);
  }

  @Tool({ output: Out })
  greet(input: Input) {
    return { greeting: `hi ${input.name}`, length: input.name.length };
  }

  @Tool({ output: Out, strictOutput: true })
  leaky(input: Input) {
    return { greeting: `hi ${input.name}`, length: 3, secret: 'internal' };
  }

  @Tool({ output: Out, text: (out: Out) => `${out.greeting} (${out.length})` })
  spoken(input: Input): Out {
    return { greeting: `hi ${input.name}`, length: input.name.length };
  }

  @Tool({ output: Out })
  broken(): Out {
    return { greeting: 42 } as unknown as Out;
  }

  @Tool({
    inputSchema: { type: 'object', properties: { a: { oneOf: [{ type: 'string' }, { type: 'integer' }] } }, required: ['a'], additionalProperties: false },
  })
  raw(input: { a: string | number }) {
    return typeof input.a;
  }

  @Tool()
  shapes(input: Input) {
    switch (input.name) {
      case 'number':
        return 42;
      case 'object':
        return { a: 1 };
      case 'block':
        return image(new Uint8Array([1, 2, 3]), 'image/png');
      case 'blocks':
        return [
          text('a'),
          audio('AAAA', 'audio/wav'),
          embeddedResource({ uri: 'x://y', blob: new Uint8Array([255]) }),
          resourceLink({ uri: 'x://z', name: 'z' }),
        ];
      case 'full':
        return { content: [{ type: 'text', text: 'as is' }], isError: false, _meta: { k: 1 } };
      default:
        return undefined;
    }
  }

  @Tool()
  throws(input: Input) {
    if (input.name === 'tool') throw new ToolError('The city is unknown');
    if (input.name === 'wire') throw new InvalidParamsError('Deliberate', { why: 'test' });
    throw new TypeError('secret internal detail at /srv/app.js:12');
  }

  @Resource({ uri: 'test://text', mimeType: 'text/plain' })
  plain() {
    return 'hello';
  }

  @Resource({ uri: 'test://bytes', mimeType: 'application/octet-stream' })
  bytes() {
    return new Uint8Array([0, 1, 2]);
  }

  @Resource({ uri: 'test://boom' })
  boom(): string {
    throw new Error('disk on fire at /var/secret');
  }

  @Resource({ uri: 'test://custom' })
  custom(): string {
    throw new McpError(-32099, 'custom failure');
  }

  @Resource({ uri: 'test://nothing' })
  nothing(): string | null {
    return null;
  }

  @ResourceTemplate({ uriTemplate: 'items://{id}{?view}', mimeType: 'application/json' })
  item(vars: { id: string; view?: string }) {
    if (vars.id === 'missing') return undefined;
    if (vars.id === 'gone') return null;
    return { id: vars.id, view: vars.view ?? 'default' };
  }

  @Prompt({ description: 'Talk about a topic' })
  talk(args: TopicArgs) {
    return `Talk about ${args.topic}${args.tone ? ` in a ${args.tone} tone` : ''}`;
  }

  @Prompt()
  conversation() {
    return [
      { role: 'user', content: { type: 'text', text: 'hi' } },
      { role: 'assistant', content: { type: 'text', text: 'hello' } },
    ];
  }
}

const app = createApp({ name: 'handlers', version: '1', providers: [Handlers], logger: pino({ level: 'silent' }) });

async function open(version = '2025-11-25'): Promise<Connection> {
  const connection = app.connect({ kind: 'memory' });
  await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: version, capabilities: {} } });
  return connection;
}

let nextId = 1;
async function rpc(connection: Connection, method: string, params: Record<string, unknown>): Promise<any> {
  return connection.receive({ jsonrpc: '2.0', id: nextId++, method, params });
}

async function call(name: string, args: unknown, version?: string) {
  return (await rpc(await open(version), 'tools/call', { name, arguments: args })).result;
}

describe('tools/call', () => {
  it('hands the handler a validated DTO and the request context', async () => {
    received.length = 0;
    const connection = await open('2025-06-18');
    const response = await connection.receive({
      jsonrpc: '2.0',
      id: 'r1',
      method: 'tools/call',
      params: { name: 'inspect', arguments: { name: 'a', count: 2, extra: true, inner: { label: 'l', junk: 1 } } },
    });
    expect(response).toEqual({ jsonrpc: '2.0', id: 'r1', result: { content: [{ type: 'text', text: 'a:r1:2025-06-18:memory' }] } });
    expect(received[0]).toBeInstanceOf(Input);
    expect(received[0]).toEqual({ name: 'a', count: 2, inner: { label: 'l' } });
    expect((received[0] as Input).inner).toBeInstanceOf(Inner);
  });

  it('answers bad arguments with an isError result naming each field', async () => {
    expect(await call('inspect', { count: 'x', inner: { label: '' } })).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'Invalid arguments for tool inspect:\n- name: is required\n- count: must be integer\n- inner.label: must NOT have fewer than 1 characters',
        },
      ],
    });
  });

  it('rejects null on an optional field unless it is nullable', async () => {
    expect((await call('inspect', { name: 'a', count: null })).isError).toBe(true);
    expect((await call('inspect', { name: 'a', note: null })).isError).toBeUndefined();
  });

  it('rejects unknown arguments on a strict tool and publishes additionalProperties: false', async () => {
    expect(await call('strict', { name: 'a', extra: 1 })).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining('extra: is not an allowed property') }],
    });
    const tools = (await rpc(await open(), 'tools/list', {})).result.tools as Array<{ name: string; inputSchema: Record<string, unknown> }>;
    expect(tools.find((tool) => tool.name === 'strict')!.inputSchema.additionalProperties).toBe(false);
    expect(tools.find((tool) => tool.name === 'inspect')!.inputSchema).not.toHaveProperty('additionalProperties');
  });

  it('runs class-validator for constraints JSON Schema cannot express', async () => {
    expect(await call('even', { n: 4 })).toEqual({ content: [{ type: 'text', text: '4' }] });
    expect(await call('even', { n: 3 })).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('n: must be even') }] });
    expect(await call('even', { n: 'x' })).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('n: must be integer') }] });
  });

  it('validates against a raw JSON Schema', async () => {
    expect(await call('raw', { a: 1 })).toEqual({ content: [{ type: 'text', text: 'number' }] });
    expect(await call('raw', { a: 'x' })).toEqual({ content: [{ type: 'text', text: 'string' }] });
    expect((await call('raw', { a: true })).isError).toBe(true);
    expect((await call('raw', { a: 1, b: 2 })).isError).toBe(true);
  });

  it('sends an output DTO as structuredContent plus the same JSON as text, and publishes outputSchema', async () => {
    expect(await call('greet', { name: 'Ann' })).toEqual({
      content: [{ type: 'text', text: '{"greeting":"hi Ann","length":3}' }],
      structuredContent: { greeting: 'hi Ann', length: 3 },
    });
    const tools = (await rpc(await open(), 'tools/list', {})).result.tools as Array<{ name: string; outputSchema?: unknown }>;
    expect(tools.find((tool) => tool.name === 'greet')!.outputSchema).toEqual({
      type: 'object',
      properties: { greeting: { type: 'string' }, length: { type: 'integer' } },
      required: ['greeting', 'length'],
    });
  });

  it('strictOutput: publishes additionalProperties: false and drops undeclared output properties, text included', async () => {
    expect(await call('leaky', { name: 'Ann' })).toEqual({
      content: [{ type: 'text', text: '{"greeting":"hi Ann","length":3}' }],
      structuredContent: { greeting: 'hi Ann', length: 3 },
    });
    expect(await call('greet', { name: 'Ann' })).toMatchObject({ structuredContent: { greeting: 'hi Ann', length: 3 } });
    const tools = (await rpc(await open(), 'tools/list', {})).result.tools as Array<{ name: string; outputSchema?: Record<string, unknown> }>;
    expect(tools.find((tool) => tool.name === 'leaky')!.outputSchema!.additionalProperties).toBe(false);
    expect(tools.find((tool) => tool.name === 'greet')!.outputSchema).not.toHaveProperty('additionalProperties');
  });

  it('text: the text block beside structuredContent comes from the option', async () => {
    expect(await call('spoken', { name: 'Ann' })).toEqual({
      content: [{ type: 'text', text: 'hi Ann (3)' }],
      structuredContent: { greeting: 'hi Ann', length: 3 },
    });
  });

  it('refuses strictOutput or text without an output DTO', () => {
    class NoOutput {
      @Tool({ text: () => 'x' })
      t() {
        return 'x';
      }
    }
    expect(() => createApp({ name: 'x', version: '1', providers: [NoOutput], logger: pino({ level: 'silent' }) })).toThrow(/text but no output DTO/);
  });

  it('leaves structuredContent out for clients older than 2025-06-18', async () => {
    expect(await call('greet', { name: 'Ann' }, '2025-03-26')).toEqual({ content: [{ type: 'text', text: '{"greeting":"hi Ann","length":3}' }] });
  });

  it('turns output that breaks its schema into a safe isError result', async () => {
    expect(await call('broken', {})).toEqual({ isError: true, content: [{ type: 'text', text: expect.stringContaining('does not match its output schema') }] });
  });

  it.each([
    ['number', { content: [{ type: 'text', text: '42' }] }],
    ['object', { content: [{ type: 'text', text: '{"a":1}' }] }],
    ['block', { content: [{ type: 'image', data: 'AQID', mimeType: 'image/png' }] }],
    [
      'blocks',
      {
        content: [
          { type: 'text', text: 'a' },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
          { type: 'resource', resource: { uri: 'x://y', blob: '/w==' } },
          { type: 'resource_link', uri: 'x://z', name: 'z' },
        ],
      },
    ],
    ['full', { content: [{ type: 'text', text: 'as is' }], isError: false, _meta: { k: 1 } }],
    ['nothing', { content: [] }],
  ])('wraps a returned %s', async (name, expected) => {
    expect(await call('shapes', { name })).toEqual(expected);
  });

  it('sends a ToolError message, masks other errors and keeps deliberate wire errors', async () => {
    expect(await call('throws', { name: 'tool' })).toEqual({ isError: true, content: [{ type: 'text', text: 'The city is unknown' }] });
    const masked = await call('throws', { name: 'other' });
    expect(masked.isError).toBe(true);
    expect(JSON.stringify(masked)).not.toMatch(/secret|srv|TypeError/);
    const wire = await rpc(await open(), 'tools/call', { name: 'throws', arguments: { name: 'wire' } });
    expect(wire.error).toEqual({ code: -32602, message: 'Deliberate', data: { why: 'test' } });
  });

  it('answers envelope mistakes with JSON-RPC errors', async () => {
    const connection = await open();
    expect((await rpc(connection, 'tools/call', { name: 'nope' })).error).toEqual({ code: -32602, message: 'Unknown tool: nope' });
    expect((await rpc(connection, 'tools/call', { name: 'inspect', arguments: 'str' })).error.code).toBe(-32602);
    expect((await rpc(connection, 'tools/call', { name: 'inspect', arguments: [1] })).error.code).toBe(-32602);
    expect((await rpc(connection, 'tools/call', { arguments: {} })).error.code).toBe(-32602);
  });
});

describe('resources', () => {
  it('lists fixed resources and templates', async () => {
    const connection = await open();
    expect((await rpc(connection, 'resources/list', {})).result.resources.map((r: { uri: string }) => r.uri)).toEqual([
      'test://text',
      'test://bytes',
      'test://boom',
      'test://custom',
      'test://nothing',
    ]);
    expect((await rpc(connection, 'resources/templates/list', {})).result).toEqual({
      resourceTemplates: [{ uriTemplate: 'items://{id}{?view}', name: 'item', mimeType: 'application/json' }],
    });
  });

  it('reads text, bytes and template matches', async () => {
    const connection = await open();
    expect((await rpc(connection, 'resources/read', { uri: 'test://text' })).result).toEqual({
      contents: [{ uri: 'test://text', mimeType: 'text/plain', text: 'hello' }],
    });
    expect((await rpc(connection, 'resources/read', { uri: 'test://bytes' })).result).toEqual({
      contents: [{ uri: 'test://bytes', mimeType: 'application/octet-stream', blob: 'AAEC' }],
    });
    expect((await rpc(connection, 'resources/read', { uri: 'items://7?view=full' })).result).toEqual({
      contents: [{ uri: 'items://7?view=full', mimeType: 'application/json', text: '{"id":"7","view":"full"}' }],
    });
  });

  it('answers unknown URIs, and handlers that return undefined, with -32002 and the URI', async () => {
    const connection = await open();
    expect((await rpc(connection, 'resources/read', { uri: 'test://none' })).error).toEqual({
      code: -32002,
      message: 'Resource not found',
      data: { uri: 'test://none' },
    });
    expect((await rpc(connection, 'resources/read', { uri: 'items://missing' })).error).toEqual({
      code: -32002,
      message: 'Resource not found',
      data: { uri: 'items://missing' },
    });
  });

  it('answers a handler that returns null as not found, like undefined (-32002; -32602 on 2026-07-28)', async () => {
    const connection = await open();
    for (const uri of ['test://nothing', 'items://gone'])
      expect((await rpc(connection, 'resources/read', { uri })).error).toEqual({ code: -32002, message: 'Resource not found', data: { uri } });
    const modern = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    for (const uri of ['test://nothing', 'items://gone', 'items://missing'])
      expect((await rpc(app.connect({ kind: 'memory' }), 'resources/read', { uri, _meta: modern })).error).toEqual({
        code: -32602,
        message: 'Resource not found',
        data: { uri },
      });
  });

  it('masks a failing reader as -32603 and keeps a deliberate McpError', async () => {
    const connection = await open();
    expect((await rpc(connection, 'resources/read', { uri: 'test://boom' })).error).toEqual({ code: -32603, message: 'Internal error' });
    expect((await rpc(connection, 'resources/read', { uri: 'test://custom' })).error).toEqual({ code: -32099, message: 'custom failure' });
    expect((await rpc(connection, 'resources/read', {})).error.code).toBe(-32602);
  });
});

describe('prompts', () => {
  it('lists arguments from the DTO', async () => {
    const prompts = (await rpc(await open(), 'prompts/list', {})).result.prompts;
    expect(prompts).toEqual([
      {
        name: 'talk',
        description: 'Talk about a topic',
        arguments: [
          { name: 'topic', description: 'What to talk about', required: true },
          { name: 'tone', required: false },
        ],
      },
      { name: 'conversation' },
    ]);
  });

  it('gets a prompt as messages', async () => {
    const connection = await open();
    expect((await rpc(connection, 'prompts/get', { name: 'talk', arguments: { topic: 'tea', tone: 'calm' } })).result).toEqual({
      description: 'Talk about a topic',
      messages: [{ role: 'user', content: { type: 'text', text: 'Talk about tea in a calm tone' } }],
    });
    expect((await rpc(connection, 'prompts/get', { name: 'conversation' })).result.messages).toHaveLength(2);
  });

  it('answers unknown prompts and bad arguments with -32602', async () => {
    const connection = await open();
    expect((await rpc(connection, 'prompts/get', { name: 'nope' })).error).toEqual({ code: -32602, message: 'Unknown prompt: nope' });
    const missing = (await rpc(connection, 'prompts/get', { name: 'talk', arguments: {} })).error;
    expect(missing).toMatchObject({ code: -32602, message: expect.stringContaining('topic: is required') });
    expect((await rpc(connection, 'prompts/get', { name: 'talk', arguments: { topic: 5 } })).error.code).toBe(-32602);
  });
});
