import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

// Issue #13 end to end: the official SDK client over a real stdio child process, reading what
// the server logs on stderr.
const SERVER = join(__dirname, 'fixtures', 'surprises-server.js');

describe('no silent surprises, over stdio with the official client', () => {
  const client = new Client({ name: 'surprises-e2e', version: '1' });
  let stderr = '';

  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SERVER],
      env: { ...process.env, LOG_LEVEL: 'warn' } as Record<string, string>,
      stderr: 'pipe',
    });
    (transport.stderr as Readable).setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    await client.connect(transport);
  });

  afterAll(() => client.close());

  /** The log records with this message, once they have arrived (the log is buffered). */
  async function logged(msg: string, count: number): Promise<Array<Record<string, unknown>>> {
    for (let waited = 0; ; waited += 20) {
      const records = stderr
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((record) => record.msg === msg);
      if (records.length >= count || waited > 3_000) return records;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('answers tools whose results cannot be sent with isError, and logs what was wrong with each', async () => {
    const tools = ['blockWithoutText', 'videoBlock', 'aMap', 'someBytes'];
    for (const name of tools) {
      expect(await client.callTool({ name, arguments: {} })).toEqual({
        isError: true,
        content: [{ type: 'text', text: `Tool ${name} produced a result that cannot be sent; details are in the server log.` }],
      });
    }
    expect(await client.callTool({ name: 'fine', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'fine' }] });
    const records = await logged('tool result cannot be sent', tools.length);
    expect(records.map((record) => [record.tool, record.problem])).toEqual([
      ['blockWithoutText', 'content[0]: a text block needs a string text, got undefined'],
      ['videoBlock', 'content[0]: has the unknown type "video" (a content block is text, image, audio, resource or resource_link)'],
      ['aMap', 'returned a Map, which JSON would send as {}; return Object.fromEntries(map) or [...map] instead'],
      ['someBytes', expect.stringContaining('returned bytes (Uint8Array); say what they are: image(bytes, mimeType)')],
    ]);
  });

  it('answers a reader that returns null as not found', async () => {
    await expect(client.readResource({ uri: 'test://nothing' })).rejects.toMatchObject({ code: -32002, data: { uri: 'test://nothing' } });
  });

  it('sends the message of a ResourceError, a PromptError and a ToolError, and masks anything else', async () => {
    await expect(client.readResource({ uri: 'reports://pending' })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining('Report pending is still being generated'),
      data: { retryAfterMs: 1000 },
    });
    await expect(client.readResource({ uri: 'reports://tool' })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining('The disk is offline'),
    });
    await expect(client.getPrompt({ name: 'draft' })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining('The draft is being edited; try again in a minute'),
    });
    const masked = client.readResource({ uri: 'reports://other' });
    await expect(masked).rejects.toMatchObject({ code: -32603 });
    await expect(masked).rejects.not.toMatchObject({ message: expect.stringContaining('secret') });
    const [threw] = await logged('request handler threw', 1);
    expect(threw).toMatchObject({ method: 'resources/read', err: { message: 'secret detail at /srv/reports.js:1' } });
  });
});
