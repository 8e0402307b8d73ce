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

  it.each(['legacy', 'modern'] as const)("leaves the caller's args object as it was (%s era)", async (era) => {
    const client = await TestClient.connect(app, { era });
    const args = { a: 1, b: 2, unknown_extra: { nested: [1] } };
    expect(firstText(await client.callTool('add', args))).toBe('3');
    expect(args).toEqual({ a: 1, b: 2, unknown_extra: { nested: [1] } });
  });

  it("hands the server a copy: a handler that changes its input cannot reach the caller's args", async () => {
    class Greedy {
      @Tool({ inputSchema: { type: 'object', properties: { list: { type: 'array' } } } })
      take(input: { list: number[]; other?: unknown }) {
        input.list.push(99);
        delete input.other;
        return String(input.list.length);
      }
    }
    const client = await TestClient.connect(createApp({ name: 'greedy', version: '1.0.0', providers: [Greedy], logger: pino({ level: 'silent' }) }));
    const args = { list: [1], other: 'kept' };
    expect(firstText(await client.callTool('take', args))).toBe('2');
    expect(args).toEqual({ list: [1], other: 'kept' });
  });
});
