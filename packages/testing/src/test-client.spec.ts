import { createApp, Prompt, Resource, Tool } from '@mcpkit/core';
import { IsNumber, IsString } from 'class-validator';
import pino from 'pino';
import { firstText, RpcError, TestClient } from './test-client';

class AddInput {
  @IsNumber()
  a: number;

  @IsNumber()
  b: number;
}

class NameArgs {
  @IsString()
  name: string;
}

class Calculator {
  @Tool({ title: 'Add' })
  add(input: AddInput) {
    return String(input.a + input.b);
  }

  @Resource({ uri: 'calc://help' })
  help() {
    return 'Adds numbers';
  }

  @Prompt()
  hello(args: NameArgs) {
    return `Hello ${args.name}`;
  }
}

const app = createApp({ name: 'calc', version: '1.0.0', providers: [Calculator], logger: pino({ level: 'silent' }) });

describe('TestClient', () => {
  it('performs the handshake and exposes the server answer', async () => {
    const client = await TestClient.connect(app);
    expect(client.server).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: 'calc' }, capabilities: { tools: {} } });
  });

  it('lists, calls, reads and gets with typed results', async () => {
    const client = await TestClient.connect(app);
    expect((await client.listTools()).map((tool) => tool.title)).toEqual(['Add']);
    expect(firstText(await client.callTool('add', { a: 1, b: 2 }))).toBe('3');
    expect((await client.callTool('add', { a: 'x' })).isError).toBe(true);
    expect(firstText(await client.readResource('calc://help'))).toBe('Adds numbers');
    expect(await client.listResources()).toEqual([{ uri: 'calc://help', name: 'help' }]);
    expect(await client.listResourceTemplates()).toEqual([]);
    expect((await client.listPrompts())[0].arguments).toEqual([{ name: 'name', required: true }]);
    expect((await client.getPrompt('hello', { name: 'Ann' })).messages[0].content).toEqual({ type: 'text', text: 'Hello Ann' });
  });

  it('throws RpcError with the code for JSON-RPC errors', async () => {
    const client = await TestClient.connect(app, { protocolVersion: '2025-03-26' });
    await expect(client.callTool('nope')).rejects.toEqual(expect.objectContaining({ code: -32602, message: 'Unknown tool: nope' }));
    await expect(client.request('nope/nope')).rejects.toBeInstanceOf(RpcError);
    expect((await client.listTools())[0]).not.toHaveProperty('title');
  });
});
