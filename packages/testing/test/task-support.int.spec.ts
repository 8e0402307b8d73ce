import { createApp, Tool } from '@mcpkit/core';
import pino from 'pino';
import { firstText, TestClient } from '../src';

class Files {
  // The official filesystem server publishes this on every tool.
  @Tool({ task: 'forbidden', input: null })
  readFile() {
    return 'contents';
  }

  @Tool({ input: null })
  plain() {
    return 'plain';
  }
}

const app = () => createApp({ name: 'files', version: '1', providers: [Files], logger: pino({ level: 'silent' }) });

describe("@Tool({ task: 'forbidden' })", () => {
  it.each(['legacy', 'modern'] as const)('is published as execution.taskSupport "forbidden" on the %s era, and the tool runs inline', async (era) => {
    const client = await TestClient.connect(app(), { era });
    const tools = await client.listTools();
    expect(tools.find((tool) => tool.name === 'readFile')?.execution).toEqual({ taskSupport: 'forbidden' });
    expect(tools.find((tool) => tool.name === 'plain')).not.toHaveProperty('execution');
    expect(firstText(await client.callTool('readFile'))).toBe('contents');
  });

  it('makes no task runtime or tasks capability, and is left out before 2025-11-25', async () => {
    const files = app();
    expect(files.capabilities).not.toHaveProperty('tasks');
    expect(files.settings.tasks).toBeUndefined();
    const old = await TestClient.connect(files, { protocolVersion: '2025-06-18' });
    expect((await old.listTools()).find((tool) => tool.name === 'readFile')).not.toHaveProperty('execution');
  });

  it('refuses a task-augmented call of it (-32601) in an app with tasks, as for a tool without tasks', async () => {
    class Exports {
      @Tool({ task: 'optional', input: null })
      exportAll() {
        return 'exported';
      }
    }
    const client = await TestClient.connect(createApp({ name: 'files', version: '1', providers: [Files, Exports], logger: pino({ level: 'silent' }) }));
    expect(client.server.capabilities.tasks).toBeDefined();
    await expect(client.request('tools/call', { name: 'plain', arguments: {}, task: {} })).rejects.toMatchObject({ code: -32601 });
    await expect(client.request('tools/call', { name: 'readFile', arguments: {}, task: {} })).rejects.toMatchObject({ code: -32601 });
  });
});
