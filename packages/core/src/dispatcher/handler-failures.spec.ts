import { IsString } from 'class-validator';
import pino from 'pino';
import { createApp } from '../server/create-app';
import { Prompt } from '../decorators/prompt.decorator';
import { Resource } from '../decorators/resource.decorator';
import { ResourceTemplate } from '../decorators/resource-template.decorator';
import { Tool } from '../decorators/tool.decorator';
import { ErrorCode } from '../errors/error-codes';
import { McpError } from '../errors/mcp-error';
import { PromptError } from '../errors/prompt-error';
import { ResourceError } from '../errors/resource-error';
import { ToolError } from '../errors/tool-error';
import { toJsonRpcError } from '../errors/to-json-rpc-error';
import type { Connection } from './connection';

// What a client sees when a handler fails (a prompt or a resource throws, a tool returns what
// cannot be sent), and what the server log says about it.

class WhichArgs {
  @IsString()
  which: string;
}

class Reply {
  @IsString()
  text: string;
}

class Failing {
  @Tool({ input: null })
  blockWithoutText() {
    return [{ type: 'text' }];
  }

  @Tool({ input: null })
  unknownType() {
    return {
      content: [
        { type: 'text', text: 'fine' },
        { type: 'video', url: 'https://example.com/v.mp4' },
      ],
    };
  }

  @Tool({ input: null })
  map() {
    return new Map([['a', 1]]);
  }

  @Tool({ input: null })
  bytes() {
    return Buffer.from('png?');
  }

  @Tool({ input: null, output: Reply })
  structuredBadBlock() {
    return { content: [{ type: 'image', data: 'AAAA' }], structuredContent: { text: 'x' } };
  }

  @Prompt()
  failing(args: WhichArgs): string {
    switch (args.which) {
      case 'prompt':
        throw new PromptError('The template is being edited; try again shortly');
      case 'coded':
        throw new PromptError('No document 7', { code: ErrorCode.InvalidParams, data: { id: '7' }, cause: new Error('row 7 missing in /srv/db') });
      case 'tool':
        throw new ToolError('The upstream service is down');
      default:
        throw new Error('secret detail at /srv/prompts.js:3');
    }
  }

  @Resource({ uri: 'fail://resource' })
  resourceError(): string {
    throw new ResourceError('The report is still being generated', { data: { retryAfterMs: 60_000 } });
  }

  @Resource({ uri: 'fail://tool' })
  toolError(): string {
    throw new ToolError('The disk is offline');
  }

  @ResourceTemplate({ uriTemplate: 'fail://other/{id}' })
  other(): string {
    throw new TypeError('secret detail at /srv/resources.js:9');
  }
}

const MODERN = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

function setup(): { connection: Connection; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const destination = { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) };
  const app = createApp({ name: 'failing', version: '1', providers: [Failing], logger: pino({ level: 'warn' }, destination) });
  return { connection: app.connect({ kind: 'memory' }), lines };
}

let nextId = 1;
async function errorOf(connection: Connection, method: string, params: Record<string, unknown>): Promise<unknown> {
  const answer = (await connection.receive({ jsonrpc: '2.0', id: nextId++, method, params })) as { error?: unknown };
  return answer.error;
}

describe.each([
  ['handshake era', {}],
  ['2026-07-28', { _meta: MODERN }],
])('errors the client sees (%s)', (_, extra) => {
  let connection: Connection;
  let lines: Array<Record<string, unknown>>;

  beforeEach(async () => {
    ({ connection, lines } = setup());
    if (!('_meta' in extra)) {
      await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
    }
  });

  const prompt = (which: string) => errorOf(connection, 'prompts/get', { name: 'failing', arguments: { which }, ...extra });
  const read = (uri: string) => errorOf(connection, 'resources/read', { uri, ...extra });

  it('a PromptError keeps its message verbatim, -32603 unless it names a code, with its data; nothing is logged', async () => {
    expect(await prompt('prompt')).toEqual({ code: -32603, message: 'The template is being edited; try again shortly' });
    expect(await prompt('coded')).toEqual({ code: -32602, message: 'No document 7', data: { id: '7' } });
    expect(lines.filter((line) => line.level === 50)).toEqual([]);
  });

  it('a ResourceError keeps its message and data', async () => {
    expect(await read('fail://resource')).toEqual({ code: -32603, message: 'The report is still being generated', data: { retryAfterMs: 60_000 } });
    expect(lines.filter((line) => line.level === 50)).toEqual([]);
  });

  it('a ToolError thrown from a prompt or a resource keeps its message, as -32603', async () => {
    expect(await prompt('tool')).toEqual({ code: -32603, message: 'The upstream service is down' });
    expect(await read('fail://tool')).toEqual({ code: -32603, message: 'The disk is offline' });
    expect(lines.filter((line) => line.level === 50)).toEqual([]);
  });

  it('any other error is masked as Internal error and logged with its stack', async () => {
    expect(await prompt('other')).toEqual({ code: -32603, message: 'Internal error' });
    expect(await read('fail://other/1')).toEqual({ code: -32603, message: 'Internal error' });
    const logged = lines.filter((line) => line.msg === 'request handler threw');
    expect(logged.map((line) => [line.method, (line.err as { message: string }).message])).toEqual([
      ['prompts/get', 'secret detail at /srv/prompts.js:3'],
      ['resources/read', 'secret detail at /srv/resources.js:9'],
    ]);
    expect(logged.every((line) => typeof (line.err as { stack?: unknown }).stack === 'string')).toBe(true);
  });
});

describe('tool results that cannot be sent', () => {
  it.each([
    ['blockWithoutText', 'content[0]: a text block needs a string text, got undefined'],
    ['unknownType', 'content[1]: has the unknown type "video" (a content block is text, image, audio, resource or resource_link)'],
    ['map', 'returned a Map, which JSON would send as {}; return Object.fromEntries(map) or [...map] instead'],
    ['bytes', expect.stringMatching(/^returned a Buffer; say what they are: image\(bytes, mimeType\)/)],
    ['structuredBadBlock', 'content[0]: an image block needs a string mimeType'],
  ] as const)('%s: an isError result without internals, one error line naming the tool and the problem', async (name, problem) => {
    const { connection, lines } = setup();
    await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
    const answer = (await connection.receive({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name } })) as { result: unknown };
    expect(answer.result).toEqual({
      isError: true,
      content: [{ type: 'text', text: `Tool ${name} produced a result that cannot be sent; details are in the server log.` }],
    });
    expect(lines.filter((line) => line.level === 50)).toEqual([expect.objectContaining({ msg: 'tool result cannot be sent', tool: name, problem, rpcId: 1 })]);
  });
});

describe('PromptError and ResourceError', () => {
  it('are wire errors (McpError) named after their class, keeping the cause for the server only', () => {
    const cause = new Error('low level');
    const error = new ResourceError('Busy', { code: -32050, cause });
    expect(McpError.isMcpError(error)).toBe(true);
    expect(error).toBeInstanceOf(McpError);
    expect([error.name, error.code, error.cause]).toEqual(['ResourceError', -32050, cause]);
    expect(toJsonRpcError(error)).toEqual({ code: -32050, message: 'Busy' });
    expect(new PromptError('Nope')).toMatchObject({ name: 'PromptError', code: -32603, data: undefined });
    expect('cause' in new PromptError('Nope')).toBe(false);
  });
});
