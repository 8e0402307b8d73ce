import { IsString } from 'class-validator';
import pino from 'pino';
import { createApp } from '../server/create-app';
import { Prompt } from '../decorators/prompt.decorator';
import { ResourceTemplate } from '../decorators/resource-template.decorator';
import { Tool } from '../decorators/tool.decorator';
import type { Connection } from '../dispatcher/connection';
import type { JsonRpcResponse } from '../protocol/json-rpc';
import { clip, clipJson, clipValue } from './clip';

class Strict {
  @IsString()
  name: string;
}

class Small {
  @Tool({ strict: true })
  strict(input: Strict) {
    return input.name;
  }

  @Tool()
  echo(input: Strict) {
    return input.name;
  }

  @Prompt()
  hello() {
    return 'hi';
  }

  @ResourceTemplate({ uriTemplate: 'test://items/{id}' })
  item({ id }: { id: string }) {
    return id.startsWith('missing') ? undefined : id;
  }
}

const HUGE = 'x'.repeat(4 * 1024 * 1024);
const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

async function open(): Promise<Connection> {
  const app = createApp({ name: 'small', version: '1', providers: [Small], logger: pino({ level: 'silent' }), pageSize: 1, clientLogging: true });
  const connection = app.connect({ kind: 'memory' });
  await connection.receive({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
  });
  return connection;
}

async function rpc(connection: Connection, method: string, params?: Record<string, unknown>): Promise<any> {
  return (await connection.receive(params === undefined ? { jsonrpc: '2.0', id: 1, method } : { jsonrpc: '2.0', id: 1, method, params })) as JsonRpcResponse;
}

describe('clip', () => {
  it('keeps short input as it is', () => {
    expect(clip('echo')).toBe('echo');
    expect(clipJson('a b')).toBe('"a b"');
    expect(clipValue(3)).toBe(3);
    expect(clipValue(null)).toBe(null);
  });

  it('cuts long input to 200 characters and says how much is left out', () => {
    expect(clip('y'.repeat(1000))).toBe(`${'y'.repeat(200)}…(800 more characters)`);
    expect(clipValue({ a: 'z'.repeat(500) })).toMatch(/^\{"a":"z+…\(308 more characters\)$/);
  });

  it('never splits a surrogate pair', () => {
    const clipped = clip(`${'a'.repeat(199)}😀${'b'.repeat(10)}`);
    expect(clipped.startsWith(`${'a'.repeat(199)}…`)).toBe(true);
  });

  it('quotes nothing of a value too deep to serialise', () => {
    let deep: unknown = [];
    for (let i = 0; i < 20_000; i++) deep = [deep];
    expect(clipJson(deep)).toBe('object');
  });
});

describe('error answers quote at most ~200 characters of client input', () => {
  let connection: Connection;

  beforeAll(async () => {
    connection = await open();
  });

  it.each([
    ['an unknown tool (4 MB name)', 'tools/call', { name: HUGE }],
    ['an unknown method', HUGE, undefined],
    ['an unknown prompt', 'prompts/get', { name: HUGE }],
    ['an unknown resource', 'resources/read', { uri: `test://other/${HUGE}` }],
    ['a resource its template does not find', 'resources/read', { uri: `test://items/missing${HUGE}` }],
    ['a bad cursor', 'tools/list', { cursor: HUGE }],
    ['a bad log level', 'logging/setLevel', { level: HUGE }],
    ['an unknown prompt to complete', 'completion/complete', { ref: { type: 'ref/prompt', name: HUGE }, argument: { name: 'a', value: 'b' } }],
    ['an unknown template to complete', 'completion/complete', { ref: { type: 'ref/resource', uri: HUGE }, argument: { name: 'a', value: 'b' } }],
    ['an unsupported 2026 version', 'tools/list', { _meta: { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': HUGE } }],
  ])('%s', async (_, method, params) => {
    const response = await rpc(connection, method, params);
    expect(response.error).toBeDefined();
    expect(JSON.stringify(response.error).length).toBeLessThan(500);
    expect(response.error.message.length).toBeLessThan(500);
    // The server still serves.
    expect((await rpc(connection, 'ping')).result).toEqual({});
  });

  it('a method sent before initialize', async () => {
    const fresh = createApp({ name: 'small', version: '1', providers: [Small], logger: pino({ level: 'silent' }) }).connect({ kind: 'memory' });
    const response = await rpc(fresh, HUGE);
    expect(response.error.code).toBe(-32600);
    expect(response.error.message.length).toBeLessThan(500);
  });

  it('tool argument problems: each path clipped, at most 20 lines', async () => {
    const args: Record<string, unknown> = { name: 'ok', [HUGE]: 1 };
    for (let i = 0; i < 1000; i++) args[`k${i}`] = i;
    const response = await rpc(connection, 'tools/call', { name: 'strict', arguments: args });
    const text = response.result.content[0].text as string;
    expect(response.result.isError).toBe(true);
    expect(text.length).toBeLessThan(21 * 300);
    expect(text).toMatch(/…and 981 more problems$/);
  });
});
