import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const MAIN = join(__dirname, '..', 'dist', 'main.js');

describe('everything over stdio', () => {
  let client: Client;

  beforeAll(async () => {
    client = new Client({ name: 'everything-e2e', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN, 'stdio'], env: { ...process.env, LOG_LEVEL: 'warn' } as Record<string, string>, stderr: 'pipe' }));
  });

  afterAll(async () => {
    await client.close();
  });

  it('publishes the raw 2020-12 schema verbatim', async () => {
    const tool = (await client.listTools()).tools.find((entry) => entry.name === 'json_schema_2020_12_tool')!;
    expect(tool.inputSchema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', $defs: { address: { type: 'object' } }, additionalProperties: false });
    expect(await client.callTool({ name: 'json_schema_2020_12_tool', arguments: { name: 'x', address: { city: 'y' } } })).toEqual({
      content: [{ type: 'text', text: 'JSON Schema 2020-12 tool called with: {"name":"x","address":{"city":"y"}}' }],
    });
    expect((await client.callTool({ name: 'json_schema_2020_12_tool', arguments: { extra: 1 } })).isError).toBe(true);
  });

  it('streams progress over stdio and returns the token', async () => {
    const progress: number[] = [];
    const result = await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined, { onprogress: (p) => progress.push(p.progress) });
    expect(progress.slice(0, 2)).toEqual([0, 50]);
    expect(result.content).toEqual([{ type: 'text', text: expect.stringMatching(/^\d+$/) }]);
  });

  it('serves the mixed content, the template and the prompts', async () => {
    expect((await client.callTool({ name: 'test_multiple_content_types', arguments: {} })).content).toHaveLength(3);
    expect((await client.readResource({ uri: 'test://template/123/data' })).contents[0]).toEqual({
      uri: 'test://template/123/data',
      mimeType: 'application/json',
      text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}',
    });
    const prompt = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'hello', arg2: 'world' } });
    expect(prompt.messages[0].content).toEqual({ type: 'text', text: "Prompt with arguments: arg1='hello', arg2='world'" });
  });
});
