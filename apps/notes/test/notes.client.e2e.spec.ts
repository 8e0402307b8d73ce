import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HttpServerProcess } from '@mcpkit/testing';
import { createClient, ToolCallError, type CreateNoteOutput } from './support/notes-client';

const MAIN = join(__dirname, '..', 'dist', 'main.js');
const CLI = join(__dirname, '..', '..', '..', 'packages', 'cli', 'dist', 'cli.js');

// The typed client `mcpkit client` writes for the notes app (test/support/notes-client.ts), over
// the official SDK client, against the built app as a user runs it: the same calls on stdio and HTTP.
async function exercise(sdk: Client): Promise<void> {
  const notes = createClient(sdk);
  const note: CreateNoteOutput = await notes.tools.create_note({ title: 'Typed', body: 'Through the generated client', tags: ['gen'] });
  expect(note).toEqual({
    id: expect.any(Number),
    title: 'Typed',
    body: 'Through the generated client',
    tags: ['gen'],
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
  });

  const found = await notes.tools.search_notes({ query: 'Typed', limit: 5 });
  expect(found.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('Typed') });

  const read = await notes.templates.note({ id: note.id });
  expect(read.contents).toEqual([{ uri: `notes://${note.id}`, mimeType: 'text/markdown', text: expect.stringContaining('Through the generated client') }]);
  expect((await notes.resources.index()).contents[0].text).toContain('Typed');

  const prompt = await notes.prompts.summarize_notes({ topic: 'Typed' });
  expect(prompt.messages[0]).toMatchObject({ role: 'user', content: { type: 'text', text: expect.stringContaining('Typed') } });

  // A tool error reaches the caller as ToolCallError, with the server's own words.
  const failure = await notes.tools.delete_note({ id: 999_999 }).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(ToolCallError);
  expect((failure as ToolCallError).result.isError).toBe(true);
  // And the server serves on.
  expect((await notes.tools.delete_note({ id: note.id })).isError).toBeFalsy();
}

describe('the generated notes client', () => {
  let dir: string;

  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'mcpkit-notes-client-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is what mcpkit client writes for the notes app as it is now', () => {
    const out = join(dir, 'notes-client.ts');
    execFileSync(process.execPath, [CLI, 'client', 'dist/app.js', '--out', out], { cwd: join(__dirname, '..'), env: { ...process.env, NOTES_DB: ':memory:' } });
    if (readFileSync(join(__dirname, 'support', 'notes-client.ts'), 'utf8') !== readFileSync(out, 'utf8'))
      throw new Error(
        'apps/notes/test/support/notes-client.ts is stale. Regenerate it: pnpm --filter @mcpkit/app-notes... build && pnpm --filter @mcpkit/app-notes client',
      );
  });

  it('drives notes over stdio with the official SDK client', async () => {
    const sdk = new Client({ name: 'notes-typed-stdio', version: '1.0.0' });
    const env = { ...process.env, LOG_LEVEL: 'warn', NOTES_DB: join(dir, 'stdio.db') } as Record<string, string>;
    await sdk.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN, '--stdio'], env, stderr: 'pipe' }));
    try {
      await exercise(sdk);
    } finally {
      await sdk.close();
    }
  });

  it('drives notes over Streamable HTTP with the official SDK client', async () => {
    const server = await HttpServerProcess.start(process.execPath, [MAIN], { NOTES_DB: join(dir, 'http.db'), LOG_LEVEL: 'warn' });
    const sdk = new Client({ name: 'notes-typed-http', version: '1.0.0' });
    try {
      await sdk.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      await exercise(sdk);
    } finally {
      await sdk.close();
      expect(await server.stop()).toEqual({ code: 0, signal: null });
    }
  });
});
