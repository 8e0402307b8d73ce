import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { text } from './support';

// Progressive disclosure (#30) on the built testbed's 507 tools, over a real child process.
const MAIN = join(__dirname, '..', 'dist', 'main.js');
const ENV = { ...process.env, LOG_LEVEL: 'warn', TOOLS: '500', SEARCH_TOOLS: '1' } as Record<string, string>;

describe('searchTools on the testbed, with the official SDK client over stdio', () => {
  let client: Client;
  let changes = 0;
  let changed: () => void = () => undefined;

  beforeAll(async () => {
    client = new Client({ name: 'e2e', version: '1.0.0' });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
      changed();
    });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN, 'stdio'], env: ENV, stderr: 'pipe' }));
  });

  afterAll(() => client.close());

  it('search → list_changed → the found tool in tools/list → a call of it', async () => {
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['search_tools']);

    const heard = new Promise<void>((resolve) => (changed = resolve));
    const answer = await client.callTool({ name: 'search_tools', arguments: { query: 'synthetic tool number 42', limit: 3 } });
    const found = (JSON.parse(text(answer)) as { tools: Array<{ name: string; inputSchema: object }> }).tools;
    expect(found[0]).toMatchObject({ name: 'tool_42', inputSchema: { type: 'object', required: ['x'] } });
    await heard;
    expect(changes).toBe(1);

    const listed = (await client.listTools()).tools.map((tool) => tool.name);
    expect(listed).toEqual(['search_tools', ...found.map((tool) => tool.name)]);
    expect(text(await client.callTool({ name: 'tool_42', arguments: { x: 5 } }))).toBe('tool_42:5');
    // A bad call of a found tool is refused as any other's.
    expect((await client.callTool({ name: 'tool_42', arguments: {} })).isError).toBe(true);
  });
});
