import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, type ClientCapabilities, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { HttpServerProcess } from '@mcpkit/testing';
import { text } from './support/waiting';

// The official v2 client pinned to 2026-07-28 against the notes app: elicitation happens through
// input-required results and retries, never through server-to-client requests.
const MAIN = join(__dirname, '..', 'dist', 'main.js');
const MODERN = '2026-07-28';

type Sent = { id?: unknown; method?: string; params?: Record<string, unknown> };
type Answer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string | boolean> };

type Target = { name: string; start(database: string): Promise<void>; transport(): Transport; stop(): Promise<void> };

let server: HttpServerProcess | undefined;
let database = '';
const stdio: Target = {
  name: 'stdio',
  start: async (path) => void (database = path),
  transport: () =>
    new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, '--stdio'],
      env: { ...process.env, LOG_LEVEL: 'warn', NOTES_DB: database } as Record<string, string>,
      stderr: 'pipe',
    }),
  stop: async () => undefined,
};
const http: Target = {
  name: 'Streamable HTTP',
  async start(path) {
    server = await HttpServerProcess.start(process.execPath, [MAIN], { NOTES_DB: path, LOG_LEVEL: 'warn' });
  },
  transport: () => new StreamableHTTPClientTransport(new URL(server!.url)),
  async stop() {
    expect(await server?.stop()).toEqual({ code: 0, signal: null });
  },
};

describe.each([stdio, http])('notes over $name with the official v2 client, 2026-07-28 pinned', (target) => {
  let dir: string;
  const clients: Client[] = [];

  /** A modern client whose elicitation handler answers from `answers`, recording what it sends and is asked. */
  async function connect(answers: Answer[], capabilities: ClientCapabilities = { elicitation: { form: {} } }) {
    const client = new Client({ name: 'notes-modern', version: '1.0.0' }, { capabilities, versionNegotiation: { mode: { pin: MODERN } } });
    const asked: Array<{ message: string; requestedSchema: unknown }> = [];
    if (capabilities.elicitation) {
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(request.params as (typeof asked)[number]);
        return answers[asked.length - 1] ?? { action: 'cancel' as const };
      });
    }
    const transport = target.transport();
    const sent: Sent[] = [];
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      sent.push(message as Sent);
      return send(message, options);
    };
    await client.connect(transport);
    clients.push(client);
    return { client, asked, sent };
  }

  const calls = (sent: Sent[]) => sent.filter((message) => message.method === 'tools/call');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcpkit-notes-modern-'));
    await target.start(join(dir, 'notes.db'));
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await target.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates, searches, reads and deletes notes', async () => {
    const { client } = await connect([]);
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getInstructions()).toContain('notes://{id}');
    const created = await client.callTool({ name: 'create_note', arguments: { title: 'Modern', body: 'No handshake', tags: ['2026'] } });
    const id = (created.structuredContent as { id: number }).id;
    expect(text(await client.callTool({ name: 'search_notes', arguments: { query: 'handshake' } }))).toBe(`#${id} Modern [2026]`);
    const read = await client.readResource({ uri: `notes://${id}` });
    expect(read.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: expect.stringContaining('No handshake') });
    expect(text(await client.callTool({ name: 'delete_note', arguments: { id } }))).toBe(`Deleted note #${id}.`);
    await expect(client.readResource({ uri: `notes://${id}` })).rejects.toMatchObject({ code: -32602 });
  });

  it('drafts a note over two input-required rounds, the second question built from the first answer', async () => {
    const { client, asked, sent } = await connect([
      { action: 'accept', content: { title: 'Tea', body: 'Buy green tea', tags: 'home, shop' } },
      { action: 'accept', content: { save: true } },
    ]);
    const result = await client.callTool({ name: 'draft_note', arguments: { topic: 'shopping' } });
    expect(text(result)).toMatch(/^Saved #\d+ Tea \[home, shop\]\.$/);

    expect(asked.map((question) => question.message)).toEqual([
      'Write a note about shopping.',
      expect.stringContaining('# Tea\n\nBuy green tea\n\ntags: home, shop'),
    ]);
    expect(asked[0].requestedSchema).toMatchObject({ type: 'object', required: ['title', 'body'] });
    expect(asked[1].requestedSchema).toMatchObject({ properties: { save: { type: 'boolean' } } });

    // Three tools/call requests: the first, then one retry per round, each with fresh ids, the
    // answers of its round and the server's opaque state echoed back.
    const rounds = calls(sent);
    expect(rounds).toHaveLength(3);
    expect(new Set(rounds.map((request) => request.id)).size).toBe(3);
    expect(rounds[0].params).not.toHaveProperty('inputResponses');
    expect(rounds[1].params).toMatchObject({ inputResponses: { draft: { action: 'accept' } }, requestState: expect.any(String) });
    expect(rounds[2].params).toMatchObject({ inputResponses: { confirm: { action: 'accept', content: { save: true } } }, requestState: expect.any(String) });
    expect(sent.some((message) => message.method === 'initialize')).toBe(false);

    const id = /#(\d+)/.exec(text(result))![1];
    expect((await client.readResource({ uri: `notes://${id}` })).contents[0]).toMatchObject({ text: expect.stringContaining('Buy green tea') });
  });

  it('writes nothing when the user declines either question', async () => {
    const declinedFirst = await connect([{ action: 'decline' }]);
    expect(text(await declinedFirst.client.callTool({ name: 'draft_note', arguments: {} }))).toBe('No note was written.');
    expect(calls(declinedFirst.sent)).toHaveLength(2);

    const declinedSecond = await connect([
      { action: 'accept', content: { title: 'Discard me', body: 'x' } },
      { action: 'accept', content: { save: false } },
    ]);
    expect(text(await declinedSecond.client.callTool({ name: 'draft_note', arguments: {} }))).toBe('The draft was discarded.');
    expect(text(await declinedSecond.client.callTool({ name: 'search_notes', arguments: { query: 'Discard me' } }))).toBe('No notes match "Discard me".');
  });

  it('tells a client without elicitation which capability the tool needs', async () => {
    const { client } = await connect([], {});
    await expect(client.callTool({ name: 'draft_note', arguments: {} })).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
    expect(text(await client.callTool({ name: 'search_notes', arguments: { query: 'nothing-like-this' } }))).toBe('No notes match "nothing-like-this".');
  });
});
