import { tmpdir } from 'node:os';
import { createApp, type AuthInfo } from '@mcpkit/core';
import { RpcError, TestClient } from '@mcpkit/testing';
import pino from 'pino';
import { createNotesApp } from './app';
import { NoteStore } from './note-store';
import { SqliteTaskStore } from './sqlite-task-store';

// The notes app mounted into a gateway under `notes` (issue #30), on both eras: its tools and
// prompts namespaced, its resources and its board view prefixed, its requireAuth and scopes
// enforced by the gateway, its resource updates heard under the mounted URI.
const UI = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
const writer: AuthInfo = { subject: 'ada', clientId: 'cli', scopes: ['notes:write'] };

function gateway(guarded = false) {
  const logger = pino({ level: 'silent' });
  const store = new NoteStore(':memory:');
  const notes = createNotesApp(store, new SqliteTaskStore(':memory:'), tmpdir(), { guarded, logger });
  return {
    store,
    app: createApp({ name: 'gateway', version: '1.0.0', providers: [], subscriptions: true, logger, imports: [{ app: notes, prefix: 'notes' }] }),
  };
}

describe.each(['legacy', 'modern'] as const)('notes mounted under "notes" (%s era)', (era) => {
  it('offers create_note as notes_create_note, its resources and its board under the prefix', async () => {
    const { app } = gateway();
    const client = await TestClient.connect(app, { era, capabilities: UI });
    expect(client.server.capabilities).toMatchObject({ extensions: { 'io.modelcontextprotocol/ui': {} } });
    const tools = new Map((await client.listTools()).map((tool) => [tool.name, tool]));
    expect([...tools.keys()]).toEqual(expect.arrayContaining(['notes_create_note', 'notes_search_notes', 'notes_show_board']));
    expect(tools.get('notes_show_board')?._meta).toEqual({ ui: { resourceUri: 'ui://notes/notes/board' }, 'ui/resourceUri': 'ui://notes/notes/board' });
    const created = await client.callTool('notes_create_note', { title: 'Milk', body: 'Two litres', tags: [] });
    expect(created.structuredContent).toMatchObject({ id: 1, title: 'Milk' });
    const uris = (await client.listResources()).map((resource) => resource.uri);
    expect(uris).toEqual(expect.arrayContaining(['notes+notes://index', 'ui://notes/notes/board']));
    expect((await client.readResource('notes+notes://1')).contents[0]).toMatchObject({ uri: 'notes+notes://1', text: expect.stringContaining('Two litres') });
    expect((await client.readResource('ui://notes/notes/board')).contents[0]).toMatchObject({ mimeType: 'text/html;profile=mcp-app' });
    expect((await client.listPrompts()).map((prompt) => prompt.name)).toContain('notes_summarize_notes');
    await expect(client.callTool('create_note', { title: 'x', body: '', tags: [] })).rejects.toBeInstanceOf(RpcError);
  });

  it("enforces the notes app's requireAuth and scopes at the gateway", async () => {
    const { app } = gateway(true);
    const anonymous = await TestClient.connect(app, { era });
    await expect(anonymous.callTool('notes_create_note', { title: 'x', body: '', tags: [] })).rejects.toBeInstanceOf(RpcError);
    const client = await TestClient.connect(app, { era, auth: writer });
    expect((await client.callTool('notes_create_note', { title: 'Milk', body: '', tags: [] })).structuredContent).toMatchObject({ id: 1 });
  });
});

describe('notes mounted: resource updates', () => {
  it('tells a gateway client subscribed to the mounted URI', async () => {
    const { app, store } = gateway();
    const client = await TestClient.connect(app);
    await client.subscribe('notes+notes://index');
    store.create('Eggs', '', []);
    expect(client.notifications('notifications/resources/updated')).toContainEqual({ uri: 'notes+notes://index' });
  });
});
