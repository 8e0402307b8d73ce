import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { RawStdioClient } from '@mcpkit/testing';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

// The `shapes` tool (issue #13): declared with decorators and @Field options only. The server's
// verdict on each input must be the verdict of the schema it publishes, compiled here by an
// independent ajv, and a refusal must name the failing field.
const MAIN = join(__dirname, '..', 'dist', 'main.js');
const ENV = { ...process.env, LOG_LEVEL: 'warn' } as Record<string, string>;

const BASE = { homepage: 'https://example.com/a?b=c', nickname: 'ada' };

const VALID: Array<[string, Record<string, unknown>, string]> = [
  ['the required fields only', BASE, 'shapes:-:green:-:0:ada'],
  ['a data: URI', { ...BASE, homepage: 'data:text/plain,hi' }, 'shapes:-:green:-:0:ada'],
  ['a null nickname', { ...BASE, nickname: null }, 'shapes:-:green:-:0:null'],
  ['formats', { ...BASE, contact: 'a@b.co', id: '9b2f1c1e-3c7a-4b59-9a5e-1f0c2d3e4f5a', day: '2026-07-28' }, 'shapes:-:green:-:0:ada'],
  ['a date-time, handed over as a Date', { ...BASE, when: '2026-07-28T10:00:00+02:00' }, 'shapes:2026-07-28T08:00:00.000Z:green:-:0:ada'],
  ['a leap second, handed over as the next instant', { ...BASE, when: '2016-12-31T23:59:60Z' }, 'shapes:2017-01-01T00:00:00.000Z:green:-:0:ada'],
  ['an offset of hours only', { ...BASE, when: '2026-07-28T10:00:00+02' }, 'shapes:2026-07-28T08:00:00.000Z:green:-:0:ada'],
  ['a string map', { ...BASE, labels: { a: 'x', b: '' } }, 'shapes:-:green:-:0:ada'],
  ['a circle', { ...BASE, shape: { kind: 'circle', radius: 2 } }, 'shapes:-:green:Circle/circle:0:ada'],
  ['a square and a colour', { ...BASE, shape: { kind: 'square', side: 1 }, color: 'blue' }, 'shapes:-:blue:Square/square:0:ada'],
  [
    'a tree four levels deep',
    { ...BASE, tree: { value: 1, children: [{ value: 2 }, { value: 3, children: [{ value: 4, children: [{ value: 5 }] }] }] } },
    'shapes:-:green:-:4:ada',
  ],
  // Issue #27: nullable was dropped on a recursive property ($ref) and on a raw anyOf.
  ['a tree whose next is null', { ...BASE, tree: { value: 1, next: null } }, 'shapes:-:green:-:1:ada:next=null'],
  ['a tree whose next is a node', { ...BASE, tree: { value: 1, next: { value: 2, next: null } } }, 'shapes:-:green:-:2:ada:next=TreeNode'],
  ['a null raw anyOf', { ...BASE, code: null }, 'shapes:-:green:-:0:ada:code=null'],
  ['an integer raw anyOf', { ...BASE, code: 7 }, 'shapes:-:green:-:0:ada:code=7'],
];

const INVALID: Array<[string, Record<string, unknown>, string]> = [
  ['not a uri', { ...BASE, homepage: 'not a uri' }, 'homepage'],
  ['no nickname', { homepage: BASE.homepage }, 'nickname'],
  ['a number nickname', { ...BASE, nickname: 3 }, 'nickname'],
  ['a bad email', { ...BASE, contact: 'nope' }, 'contact'],
  ['a bad uuid', { ...BASE, id: '1234' }, 'id'],
  ['an impossible date', { ...BASE, day: '2026-02-30' }, 'day'],
  ['a bad date-time', { ...BASE, when: 'yesterday' }, 'when'],
  ['a number in a string map', { ...BASE, labels: { a: 2 } }, 'labels'],
  ['a circle with a side', { ...BASE, shape: { kind: 'circle', side: 1 } }, 'shape'],
  ['a triangle', { ...BASE, shape: { kind: 'triangle' } }, 'shape'],
  ['a bad node at depth 4', { ...BASE, tree: { value: 1, children: [{ value: 2, children: [{ value: 3, children: [{ value: 'four' }] }] }] } }, 'tree'],
  ['an unknown colour', { ...BASE, color: 'purple' }, 'color'],
  ['a next that is a number', { ...BASE, tree: { value: 1, next: 3 } }, 'tree'],
  ['a bad node behind next', { ...BASE, tree: { value: 1, next: { value: 'two' } } }, 'tree'],
  ['a raw anyOf that is neither', { ...BASE, code: true }, 'code'],
  ['an empty raw anyOf string', { ...BASE, code: '' }, 'code'],
];

describe('the shapes tool, against its published schema', () => {
  const client = new Client({ name: 'shapes-e2e', version: '1' });
  let validate: (value: unknown) => boolean;

  beforeAll(async () => {
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN, 'stdio'], env: ENV, stderr: 'pipe' }));
    const { tools } = await client.listTools();
    const schema = tools.find((tool) => tool.name === 'shapes')!.inputSchema;
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    validate = ajv.compile(schema);
  });

  afterAll(() => client.close());

  it('is declared with decorators only: formats, a nullable, a map, a union, $defs for the tree, a default', async () => {
    const { tools } = await client.listTools();
    const schema = tools.find((tool) => tool.name === 'shapes')!.inputSchema as Record<string, any>;
    expect(schema.required).toEqual(['homepage', 'nickname']);
    expect(schema.properties).toMatchObject({
      homepage: { type: 'string', format: 'uri' },
      contact: { type: 'string', format: 'email' },
      id: { type: 'string', format: 'uuid' },
      day: { type: 'string', format: 'date' },
      when: { type: 'string', format: 'date-time' },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      nickname: { type: ['string', 'null'] },
      shape: { oneOf: [{ properties: { kind: { const: 'circle' } } }, { properties: { kind: { const: 'square' } } }] },
      tree: {
        properties: { children: { items: { $ref: '#/$defs/TreeNode' } }, next: { anyOf: [{ $ref: '#/$defs/TreeNode' }, { type: 'null' }] } },
      },
      code: { anyOf: [{ type: 'string', minLength: 1 }, { type: 'integer' }, { type: 'null' }] },
      color: { type: 'string', enum: ['red', 'green', 'blue'], default: 'green' },
    });
    expect(schema.$defs.TreeNode).toEqual(schema.properties.tree);
  });

  it.each(VALID)('accepts %s, as the published schema does', async (_name, args, expected) => {
    expect(validate(args)).toBe(true);
    const result = await client.callTool({ name: 'shapes', arguments: args });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: expected }]);
  });

  it.each(INVALID)('refuses %s, as the published schema does, naming the field', async (_name, args, field) => {
    expect(validate(args)).toBe(false);
    const result = await client.callTool({ name: 'shapes', arguments: args });
    expect(result.isError).toBe(true);
    expect((result.content as Array<{ text: string }>)[0].text).toContain(field);
  });
});

// A recursive input is the one shape whose valid data nests without end; validating and building
// it recurse with the data, so a deep enough tree used to overflow the stack (-32603 and an error
// in the log). The bound answers first, as invalid arguments, before anything recursive runs.
describe('the shapes tool, against a tree deeper than any real input', () => {
  let server: RawStdioClient;

  beforeAll(async () => {
    server = RawStdioClient.spawn(process.execPath, [MAIN, 'stdio'], ENV);
    server.send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'deep', version: '1' } },
    });
    await server.waitFor((message) => message.id === 0);
    server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  });

  afterAll(async () => {
    server.kill();
    await server.exited;
  });

  it.each([300, 20_000])('answers a tree %i levels deep with isError naming the bound, and keeps serving', async (levels) => {
    // Written by hand: JSON.stringify itself overflows on 20 000 levels.
    let tree = '{"value":0}';
    for (let level = 1; level < levels; level++) tree = `{"value":${level},"children":[${tree}]}`;
    server.writeLine(
      `{"jsonrpc":"2.0","id":${levels},"method":"tools/call","params":{"name":"shapes","arguments":{"homepage":"https://a.b","nickname":"n","tree":${tree}}}}`,
    );
    const answer = (await server.waitFor((message) => message.id === levels)) as { result?: { isError?: boolean; content: Array<{ text: string }> } };
    expect(answer.result?.isError).toBe(true);
    expect(answer.result?.content[0].text).toMatch(/nests deeper than 256 levels/);
    server.send({ jsonrpc: '2.0', id: 'after', method: 'ping' });
    await server.waitFor((message) => message.id === 'after');
  });
});
