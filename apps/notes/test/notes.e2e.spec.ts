import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { HttpServerProcess } from '@mcpkit/testing';
import { text } from './support/waiting';

const MAIN = join(__dirname, '..', 'dist', 'main.js');

async function start(database: string): Promise<Client> {
  const client = new Client({ name: 'notes-e2e', version: '1.0.0' });
  const env = { ...process.env, LOG_LEVEL: 'warn', NOTES_DB: database } as Record<string, string>;
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN, '--stdio'], env, stderr: 'pipe' }));
  return client;
}

describe('notes over stdio with the official SDK client', () => {
  let dir: string;
  let database: string;
  let client: Client;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcpkit-notes-'));
    database = join(dir, 'notes.db');
    client = await start(database);
  });

  afterAll(async () => {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists tools (snapshot), resources, templates and prompts', async () => {
    expect((await client.listTools()).tools).toMatchSnapshot();
    expect((await client.listResources()).resources).toEqual([
      { uri: 'notes://index', name: 'index', title: 'All notes', description: 'One line per note', mimeType: 'text/plain' },
      {
        uri: 'ui://notes/board',
        name: 'board',
        title: 'Notes board',
        description: 'The notes, a search box and a form that adds a note',
        mimeType: 'text/html;profile=mcp-app',
        _meta: { ui: { prefersBorder: true } },
      },
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      { uriTemplate: 'notes://{id}', name: 'note', title: 'A note', description: 'One note as Markdown', mimeType: 'text/markdown' },
      // The files of the notes' skills (the Skills extension, notes.skills.e2e.spec.ts).
      { uriTemplate: 'skill://{+path}', name: 'io.modelcontextprotocol/skills', description: 'Files of the skills this server serves' },
    ]);
    expect((await client.listPrompts()).prompts).toEqual([
      {
        name: 'summarize_notes',
        title: 'Summarise notes',
        description: 'Asks the model to summarise the notes, optionally on one topic',
        arguments: [{ name: 'topic', description: 'Only notes mentioning this text (default: all notes)', required: false }],
      },
    ]);
    expect(client.getInstructions()).toContain('notes://{id}');
  });

  it('creates, searches, updates, reads and deletes notes', async () => {
    const created = await client.callTool({ name: 'create_note', arguments: { title: 'Groceries', body: 'Milk and tea', tags: ['home'] } });
    const note = created.structuredContent as { id: number; title: string; tags: string[] };
    expect(note).toMatchObject({ title: 'Groceries', tags: ['home'] });
    expect(JSON.parse(text(created))).toEqual(note);

    expect(text(await client.callTool({ name: 'search_notes', arguments: { query: 'tea' } }))).toBe(`#${note.id} Groceries [home]`);
    expect(text(await client.callTool({ name: 'search_notes', arguments: { query: 'coffee' } }))).toBe('No notes match "coffee".');

    expect(text(await client.callTool({ name: 'update_note', arguments: { id: note.id, body: 'Milk, tea and bread' } }))).toBe(
      `Updated #${note.id} Groceries [home]`,
    );
    // A list where notes://{id} has a scalar is no note (#26 review, finding 8: it read this one).
    await expect(client.readResource({ uri: `notes://${note.id},999` })).rejects.toMatchObject({ code: -32002 });
    const read = await client.readResource({ uri: `notes://${note.id}` });
    expect(read.contents[0]).toMatchObject({ uri: `notes://${note.id}`, mimeType: 'text/markdown', text: expect.stringContaining('Milk, tea and bread') });
    expect((await client.readResource({ uri: 'notes://index' })).contents[0]).toMatchObject({ text: `#${note.id} Groceries [home]` });

    const prompt = await client.getPrompt({ name: 'summarize_notes', arguments: { topic: 'tea' } });
    expect(prompt.messages[0].content).toMatchObject({ type: 'text', text: expect.stringContaining('Milk, tea and bread') });

    expect(text(await client.callTool({ name: 'delete_note', arguments: { id: note.id } }))).toBe(`Deleted note #${note.id}.`);
    await expect(client.readResource({ uri: `notes://${note.id}` })).rejects.toMatchObject({ code: -32002 });
  });

  it('reports mistakes clearly', async () => {
    const missing = await client.callTool({ name: 'update_note', arguments: { id: 9999, title: 'x' } });
    expect(missing).toMatchObject({ isError: true, content: [{ text: 'There is no note #9999.' }] });
    const invalid = await client.callTool({ name: 'create_note', arguments: { title: '', body: 'x' } });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toContain('title:');
    await expect(client.readResource({ uri: 'notes://abc' })).rejects.toMatchObject({ code: -32002 });
  });

  it('drafts a note through two elicitation requests on the handshake era (the same handler as 2026-07-28)', async () => {
    const asking = new Client({ name: 'notes-elicit', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    asking.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return asked.length === 1 ? { action: 'accept', content: { title: 'Legacy', body: 'Asked twice' } } : { action: 'accept', content: { save: true } };
    });
    const env = { ...process.env, LOG_LEVEL: 'warn', NOTES_DB: database } as Record<string, string>;
    await asking.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN, '--stdio'], env, stderr: 'pipe' }));
    try {
      expect(text(await asking.callTool({ name: 'draft_note', arguments: {} }))).toMatch(/^Saved #\d+ Legacy\.$/);
      expect(asked).toEqual(['Write a note.', expect.stringContaining('# Legacy\n\nAsked twice')]);
    } finally {
      await asking.close();
    }
  });

  it('keeps notes across a restart', async () => {
    const created = await client.callTool({ name: 'create_note', arguments: { title: 'Durable', body: 'Survives restarts' } });
    const id = (created.structuredContent as { id: number }).id;
    await client.close();
    client = await start(database);
    const read = await client.readResource({ uri: `notes://${id}` });
    expect(read.contents[0]).toMatchObject({ text: expect.stringContaining('Survives restarts') });
  });
});

describe.each([[[] as string[]], [['--stateless']]])('notes over Streamable HTTP (the default of pnpm start) %j', (flags) => {
  let dir: string;
  let server: HttpServerProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcpkit-notes-http-'));
    server = await HttpServerProcess.start(process.execPath, [MAIN, ...flags], { NOTES_DB: join(dir, 'notes.db'), LOG_LEVEL: 'warn' });
  });

  afterAll(async () => {
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the URL and client snippets, then serves the SDK client', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    await server.waitForOutput(`claude mcp add --transport http notes ${server.url}`);
    const client = new Client({ name: 'notes-http', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    await client.connect(transport);
    expect(transport.sessionId === undefined).toBe(flags.includes('--stateless'));
    const created = await client.callTool({ name: 'create_note', arguments: { title: 'Over HTTP', body: 'via Fastify' } });
    const id = (created.structuredContent as { id: number }).id;
    expect(text(await client.callTool({ name: 'search_notes', arguments: { query: 'Fastify' } }))).toBe(`#${id} Over HTTP`);
    expect((await client.readResource({ uri: `notes://${id}` })).contents[0]).toMatchObject({ text: expect.stringContaining('via Fastify') });
    if (transport.sessionId) await transport.terminateSession();
    await client.close();
  });
});
