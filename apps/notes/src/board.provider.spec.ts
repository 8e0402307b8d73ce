import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { RpcError, TestClient, firstText } from '@mcpkit/testing';
import { createNotesApp } from './app';
import { BOARD_HTML } from './board.provider';
import { NoteStore } from './note-store';
import { SqliteTaskStore } from './sqlite-task-store';

// The notes board (MCP Apps) through the test client, on both eras, in the open and the
// authenticated mode. The real host, in a browser, is test/board.browser.e2e.spec.ts.
const UI = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

function notesApp(guarded = false) {
  const store = new NoteStore(':memory:');
  store.create('Milk', 'Two litres', ['shopping']);
  store.create('Call Ada', 'About the analytical engine', []);
  return { store, app: createNotesApp(store, new SqliteTaskStore(':memory:'), tmpdir(), { guarded }) };
}

describe.each(['legacy', 'modern'] as const)('the notes board on the %s era', (era) => {
  it('serves the built board as ui://notes/board, and links show_board to it', async () => {
    const { app } = notesApp();
    const client = await TestClient.connect(app, { era, capabilities: UI });
    expect(client.server.capabilities).toMatchObject({ extensions: { 'io.modelcontextprotocol/ui': {} } });
    expect(await client.listResources()).toContainEqual({
      uri: 'ui://notes/board',
      name: 'board',
      title: 'Notes board',
      description: 'The notes, a search box and a form that adds a note',
      mimeType: 'text/html;profile=mcp-app',
      _meta: { ui: { prefersBorder: true } },
    });
    // pnpm test builds first: the HTML is dist/board.html, the App SDK bundled inside.
    expect(existsSync(BOARD_HTML)).toBe(true);
    const [board] = (await client.readResource('ui://notes/board')).contents;
    expect(board).toEqual({
      uri: 'ui://notes/board',
      mimeType: 'text/html;profile=mcp-app',
      text: readFileSync(BOARD_HTML, 'utf8'),
      _meta: { ui: { prefersBorder: true } },
    });
    const tools = new Map((await client.listTools()).map((tool) => [tool.name, tool]));
    expect(tools.get('show_board')?._meta).toEqual({ ui: { resourceUri: 'ui://notes/board' }, 'ui/resourceUri': 'ui://notes/board' });
    expect(tools.get('board_notes')?._meta).toEqual({ ui: { resourceUri: 'ui://notes/board', visibility: ['app'] }, 'ui/resourceUri': 'ui://notes/board' });
    expect(tools.get('create_note')?._meta).toBeUndefined();
  });

  it('lists and searches through board_notes, and creates through create_note', async () => {
    const { app, store } = notesApp();
    const client = await TestClient.connect(app, { era, capabilities: UI });
    const all = await client.callTool('board_notes');
    expect(all.structuredContent).toEqual({
      notes: [
        { id: 1, title: 'Milk', body: 'Two litres', tags: ['shopping'], updatedAt: expect.any(String) },
        { id: 2, title: 'Call Ada', body: 'About the analytical engine', tags: [], updatedAt: expect.any(String) },
      ],
    });
    expect(firstText(all)).toBe('#1 Milk [shopping]\n#2 Call Ada');
    expect((await client.callTool('board_notes', { query: 'shop' })).structuredContent).toEqual({ notes: [expect.objectContaining({ id: 1 })] });
    expect((await client.callTool('create_note', { title: 'Eggs', body: '', tags: ['shopping'] })).structuredContent).toMatchObject({ id: 3, title: 'Eggs' });
    expect(store.search('shopping', 10).map((note) => note.title)).toEqual(['Eggs', 'Milk']);
    expect(firstText(await client.callTool('show_board', { query: 'Ada' }))).toBe('1 note matching "Ada":\n#2 Call Ada');
  });

  it('gives a client without MCP Apps the notes as text and no board_notes', async () => {
    const { app } = notesApp();
    const client = await TestClient.connect(app, { era });
    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name)).not.toContain('board_notes');
    expect(tools.find((tool) => tool.name === 'show_board')?._meta).toBeUndefined();
    expect(firstText(await client.callTool('show_board'))).toBe('2 notes:\n#1 Milk [shopping]\n#2 Call Ada');
    await expect(client.callTool('board_notes')).rejects.toMatchObject({ code: -32602, message: 'Unknown tool: board_notes' });
  });
});

describe('the notes board in the authenticated mode', () => {
  it('needs notes:read for the view and its tools', async () => {
    const { app } = notesApp(true);
    const reader = await TestClient.connect(app, { capabilities: UI, auth: { subject: 'ann', scopes: ['notes:read'] } });
    expect(firstText(await reader.readResource('ui://notes/board'))).toContain('<title>Notes board</title>');
    expect((await reader.callTool('board_notes')).isError).toBeUndefined();
    const writer = await TestClient.connect(app, { capabilities: UI, auth: { subject: 'bob', scopes: ['notes:write'] } });
    // notes:write implies notes:read (impliedScopes in app.ts).
    expect((await writer.callTool('show_board')).isError).toBeUndefined();
    const stranger = await TestClient.connect(app, { capabilities: UI, auth: { subject: 'eve', scopes: [] } });
    const refused = await stranger.readResource('ui://notes/board').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RpcError);
  });
});
