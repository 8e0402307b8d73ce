import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpServerProcess } from '@mcpkit/testing';

// The built notes app with --stateless (serveHttp({ sessions: false })) on a loopback socket
// (issue #11, item 11): a handshake-era client that declared elicitation is told the true reason
// draft_note cannot ask it, not that it lacks the capability.
const MAIN = join(__dirname, '..', 'dist', 'main.js');

type Answer = { id?: unknown; result?: { isError?: boolean; content: Array<{ text: string }> }; error?: unknown };

describe('notes over stateless Streamable HTTP: elicitation without a session', () => {
  let dir: string;
  let server: HttpServerProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcpkit-notes-stateless-'));
    server = await HttpServerProcess.start(process.execPath, [MAIN, '--stateless'], { NOTES_DB: join(dir, 'notes.db'), LOG_LEVEL: 'warn' });
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function post(message: Record<string, unknown>, version?: string): Promise<{ status: number; answer: Answer }> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (version) headers['mcp-protocol-version'] = version;
    const response = await fetch(server.url, { method: 'POST', headers, body: JSON.stringify(message), signal: AbortSignal.timeout(10_000) });
    const text = await response.text();
    // JSON, or one SSE event carrying the answer.
    const json = response.headers.get('content-type')?.includes('text/event-stream')
      ? text
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim())
          .filter((data) => data.includes('"id"'))
          .pop()!
      : text;
    return { status: response.status, answer: JSON.parse(json) as Answer };
  }

  it('says the server has no sessions, not that the client lacks elicitation, and serves on', async () => {
    const init = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: { elicitation: { form: {} } }, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(init.status).toBe(200);

    const draft = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'draft_note', arguments: { topic: 't' } } }, '2025-11-25');
    expect(draft.status).toBe(200);
    expect(draft.answer.result?.isError).toBe(true);
    const text = draft.answer.result!.content[0].text;
    expect(text).toBe(
      'This server runs without sessions (stateless HTTP), so it cannot send elicitation/create to the client. Use 2026-07-28, where the question travels as an input-required result, or a server with sessions.',
    );
    expect(text).not.toContain('did not declare');

    const search = await post(
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_notes', arguments: { query: 'nothing-like-this' } } },
      '2025-11-25',
    );
    expect(search.answer.result).toEqual({ content: [{ type: 'text', text: 'No notes match "nothing-like-this".' }] });
  });
});
