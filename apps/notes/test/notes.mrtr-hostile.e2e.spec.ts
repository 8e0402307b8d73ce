import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RawStdioClient } from '@mcpkit/testing';

// Raw 2026-07-28 JSON lines to the built notes app over stdio (issue #11, items 4 and 5): what a
// client sends is what requestState digests, and the answers it sends back are bounded.
const MAIN = join(__dirname, '..', 'dist', 'main.js');
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

type Message = Record<string, unknown> & { result?: Record<string, unknown>; error?: { code: number; message: string } };

describe('notes over stdio: MRTR retries and their bounds (2026-07-28, raw JSON lines)', () => {
  let dir: string;
  let server: RawStdioClient;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcpkit-notes-mrtr-'));
    server = RawStdioClient.spawn(process.execPath, [MAIN, '--stdio'], { ...process.env, LOG_LEVEL: 'warn', NOTES_DB: join(dir, 'notes.db') });
  });

  afterEach(async () => {
    server.kill();
    await server.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  async function call(id: number | string, params: Record<string, unknown>): Promise<Message> {
    const earlier = new Set(server.messages);
    server.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { _meta: META, ...params } });
    return (await server.waitFor((message) => message.id === id && !earlier.has(message))) as Message;
  }

  it('retries draft_note with an unknown argument through both rounds to the final result', async () => {
    // Exactly the arguments of the report: an unknown property beside the known one.
    const args = { topic: 't', unknown_extra: 1 };
    const first = await call(1, { name: 'draft_note', arguments: args });
    expect(first.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { draft: { method: 'elicitation/create' } },
      requestState: expect.any(String),
    });

    const second = await call(2, {
      name: 'draft_note',
      arguments: args,
      requestState: first.result!.requestState,
      inputResponses: { draft: { action: 'accept', content: { title: 'Tea', body: 'Green' } } },
    });
    expect(second.error).toBeUndefined();
    expect(second.result).toMatchObject({ resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create' } } });

    const third = await call(3, {
      name: 'draft_note',
      arguments: args,
      requestState: second.result!.requestState,
      inputResponses: { confirm: { action: 'accept', content: { save: true } } },
    });
    expect(third.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: expect.stringMatching(/^Saved #\d+ Tea\.$/) }] });
    expect(server.stray).toEqual([]);
  });

  it('completes an exchange once: its final round replayed, replayed at once in parallel, or a sibling of it is refused; the draft is saved once', async () => {
    const args = { topic: 'once' };
    const first = await call(1, { name: 'draft_note', arguments: args });
    const draft = (title: string) => ({ draft: { action: 'accept', content: { title, body: 'b' } } });
    const round2 = { name: 'draft_note', arguments: args, requestState: first.result!.requestState, inputResponses: draft('Once') };
    const second = await call(2, round2);
    // The same second round again (a retry the client may send) asks again, with a sibling state.
    const sibling = await call(3, { ...round2, inputResponses: draft('Twice') });
    expect(sibling.result).toMatchObject({ resultType: 'input_required' });
    const final = {
      name: 'draft_note',
      arguments: args,
      requestState: second.result!.requestState,
      inputResponses: { confirm: { action: 'accept', content: { save: true } } },
    };
    const saved = await call(4, final);
    expect(saved.result).toMatchObject({ resultType: 'complete', content: [{ text: expect.stringMatching(/^Saved #\d+ Once\.$/) }] });

    const refusal = {
      code: -32602,
      message: 'requestState already used: its exchange completed, or a round of it is running; send the request again without it',
    };
    expect((await call(5, final)).error).toEqual(refusal);
    expect((await call(6, { ...final, requestState: sibling.result!.requestState })).error).toEqual(refusal);
    // Any round of a completed exchange: it cannot ask again either.
    expect((await call(7, round2)).error).toEqual(refusal);

    // Another exchange, its final round sent three times at once: one runs.
    const again = await call(8, { name: 'draft_note', arguments: { topic: 'race' } });
    const last = await call(9, { name: 'draft_note', arguments: { topic: 'race' }, requestState: again.result!.requestState, inputResponses: draft('Race') });
    const racing = {
      name: 'draft_note',
      arguments: { topic: 'race' },
      requestState: last.result!.requestState,
      inputResponses: { confirm: { action: 'accept', content: { save: true } } },
    };
    const answers = await Promise.all([10, 11, 12].map((id) => call(id, racing)));
    expect(answers.filter((answer) => answer.result?.resultType === 'complete')).toHaveLength(1);
    expect(answers.filter((answer) => answer.error?.code === -32602)).toHaveLength(2);

    // Serves on, and holds each note once.
    const found = await call(13, { name: 'search_notes', arguments: { query: 'b' } });
    const titles = (found.result as { content: Array<{ text: string }> }).content[0].text.split('\n').map((line) => line.replace(/^#\d+ /, ''));
    expect(titles.sort()).toEqual(['Once', 'Race']);
    expect(server.stray).toEqual([]);
  });

  it('still refuses a state replayed with other arguments', async () => {
    const first = await call(1, { name: 'draft_note', arguments: { topic: 't', unknown_extra: 1 } });
    const retry = await call(2, {
      name: 'draft_note',
      arguments: { topic: 't' },
      requestState: first.result!.requestState,
      inputResponses: { draft: { action: 'decline' } },
    });
    expect(retry.error).toMatchObject({ code: -32602, message: expect.stringContaining('Invalid requestState') });
  });

  it('answers inputResponses nested 20 000 arrays deep with -32602, and serves the same id next', async () => {
    // Built as text: the client side must not recurse either.
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    server.writeLine(
      `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"_meta":${JSON.stringify(META)},"name":"draft_note","arguments":{},"inputResponses":{"a":${deep}}}}`,
    );
    const refused = (await server.waitFor((message) => message.id === 7)) as Message;
    expect(refused.error).toEqual({ code: -32602, message: 'inputResponses nest deeper than 64 levels in one answer (maxInputDepth)' });

    const again = await call(7, { name: 'search_notes', arguments: { query: 'nothing-like-this' } });
    expect(again.result).toMatchObject({ content: [{ type: 'text', text: 'No notes match "nothing-like-this".' }] });
    expect(server.messages.filter((message) => message.id === 7)).toHaveLength(2);
    expect(server.stray).toEqual([]);
  });

  it('answers an oversized requestState with -32602 and keeps serving', async () => {
    const refused = await call(8, { name: 'draft_note', arguments: {}, requestState: 'x'.repeat(300_000) });
    expect(refused.error).toMatchObject({ code: -32602, message: expect.stringContaining('maxRequestStateBytes') });
    expect((await call(9, { name: 'search_notes', arguments: { query: 'q' } })).result).toMatchObject({ resultType: 'complete' });
  });
});
