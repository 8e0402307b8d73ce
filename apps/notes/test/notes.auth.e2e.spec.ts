import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HttpServerProcess, StubAuthorizationServer } from '@mcpkit/testing';

// The notes app in its authenticated mode (NOTES_AUTH_ISSUER + NOTES_AUTH_RESOURCE) as a child
// process, tokens from the stub authorization server, driven by the official clients on both
// eras: v1 on the handshake era (2025-11-25), v2 pinned to 2026-07-28.
const MAIN = join(__dirname, '..', 'dist', 'main.js');

type Result = { content: Array<{ type: string; text?: string }>; isError?: boolean; structuredContent?: unknown; _meta?: Record<string, unknown> };
/** What both official clients offer, as this test uses it. */
interface Caller {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  listResources(): Promise<{ resources: Array<{ uri: string }> }>;
  listResourceTemplates(): Promise<{ resourceTemplates: Array<{ uriTemplate: string }> }>;
  listPrompts(): Promise<{ prompts: Array<{ name: string }> }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  readResource(params: { uri: string }): Promise<{ contents: Array<{ text?: unknown }> }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<{ messages: unknown[] }>;
  close(): Promise<void>;
}
/** A refused HTTP exchange, as the client's fetch saw it. */
type Refusal = { status: number; challenge: string | null; body: string };
type Era = { name: string; connect(token: string | undefined, refusals: Refusal[]): Promise<Caller> };

function recordingFetch(refusals: Refusal[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!response.ok) refusals.push({ status: response.status, challenge: response.headers.get('www-authenticate'), body: await response.clone().text() });
    return response;
  };
}

const headers = (token: string | undefined): Record<string, string> => (token === undefined ? {} : { authorization: `Bearer ${token}` });

let server: HttpServerProcess;
let as: StubAuthorizationServer;
let resource = '';
let dir = '';
/** Every token this file sent: none may appear in the server's output (auth.md case 18). */
const sent: string[] = [];

const handshake: Era = {
  name: 'the handshake era (v1 client, 2025-11-25)',
  async connect(token, refusals) {
    const client = new Client({ name: 'notes-auth', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: headers(token) }, fetch: recordingFetch(refusals) }));
    expect(client.getServerVersion()).toMatchObject({ name: 'mcpkit-notes' });
    return client as unknown as Caller;
  },
};
const modern: Era = {
  name: '2026-07-28 (v2 client, pinned)',
  async connect(token, refusals) {
    const client = new ModernClient({ name: 'notes-auth', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new ModernTransport(new URL(server.url), { requestInit: { headers: headers(token) }, fetch: recordingFetch(refusals) }));
    expect(client.getProtocolEra()).toBe('modern');
    return client as unknown as Caller;
  },
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const text = (result: unknown): string => (result as Result).content[0]?.text ?? '';
/** An error as a client surfaces it, with the item's name taken out: hidden and unknown must match. */
const shape = (error: unknown, name: string) => {
  const { code, message, data } = error as { code?: unknown; message: string; data?: unknown };
  return {
    code,
    message: message.split(name).join('<name>'),
    data: JSON.stringify(data ?? null)
      .split(name)
      .join('<name>'),
  };
};
const failure = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcpkit-notes-auth-'));
  as = await StubAuthorizationServer.start();
  // The canonical URL must be known before the server starts: it is in every token's aud.
  const port = await freePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  server = await HttpServerProcess.start(process.execPath, [MAIN], {
    PORT: String(port),
    // The audit line is at info: checked at the end, with what the server printed.
    LOG_LEVEL: 'info',
    NOTES_DB: join(dir, 'notes.db'),
    NOTES_EXPORT_DIR: join(dir, 'exports'),
    NOTES_AUTH_ISSUER: as.issuer,
    NOTES_AUTH_RESOURCE: resource,
  });
  expect(server.url).toBe(resource);
});

afterAll(async () => {
  expect(await server?.stop()).toEqual({ code: 0, signal: null });
  await as?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each([handshake, modern])('the authenticated notes app on $name', (era) => {
  const clients: Caller[] = [];
  // Subjects of their own per era: the rate-limit buckets of one era do not touch the other's.
  const who = (name: string) => `${name}-${era === handshake ? 'h' : 'm'}`;
  const token = async (sub: string, scope: string, claims?: Record<string, unknown>) => {
    const minted = await as.mint({ aud: resource, sub: who(sub), scope, claims: { client_id: 'notes-e2e', ...claims } });
    sent.push(minted);
    return minted;
  };

  async function connect(credential: string | undefined, refusals: Refusal[] = []): Promise<Caller> {
    const client = await era.connect(credential, refusals);
    clients.push(client);
    return client;
  }

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
  });

  it('answers an anonymous client 401 with a challenge naming the metadata and the scopes, without an error code (A2, A3, A4, A8)', async () => {
    const refusals: Refusal[] = [];
    await expect(connect(undefined, refusals)).rejects.toThrow();
    const prm = `${new URL(resource).origin}/.well-known/oauth-protected-resource/mcp`;
    expect(refusals[0]).toMatchObject({ status: 401, challenge: `Bearer resource_metadata="${prm}", scope="notes:read notes:write"` });
    expect(JSON.parse(refusals[0].body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -31001 } });
    // The metadata the challenge points at (A1, A12): this resource, exactly, and its issuer.
    expect(await (await fetch(prm)).json()).toEqual({
      resource,
      authorization_servers: [as.issuer],
      scopes_supported: ['notes:read', 'notes:write'],
      bearer_methods_supported: ['header'],
      resource_name: 'mcpkit notes',
    });
  });

  it('answers a token for another resource, an expired one and one from another issuer 401 invalid_token (A5, A6, A7)', async () => {
    for (const bad of [
      await as.mint({ aud: 'http://127.0.0.1:1/other', sub: who('ann'), scope: 'notes:read' }),
      await as.mint({ aud: resource, sub: who('ann'), scope: 'notes:read', exp: -120 }),
      await as.mint({ aud: resource, sub: who('ann'), scope: 'notes:read', iss: 'http://127.0.0.1:1' }),
    ]) {
      sent.push(bad);
      const refusals: Refusal[] = [];
      await expect(connect(bad, refusals)).rejects.toThrow();
      expect(refusals[0].status).toBe(401);
      expect(refusals[0].challenge).toMatch(/^Bearer error="invalid_token", resource_metadata="/);
      expect(refusals[0].body).not.toContain(bad);
    }
  });

  it('serves a reader what notes:read allows, lists the tools it may step up to and leaves out delete_note (A17, A18)', async () => {
    const reader = await connect(await token('ann', 'notes:read'));
    const tools = await reader.listTools();
    // show_board: the board reads notes; board_notes is the board's own, offered to no client without MCP Apps.
    expect(tools.tools.map((tool) => tool.name).sort()).toEqual(['create_note', 'draft_note', 'export_notes', 'search_notes', 'show_board', 'update_note']);
    // A list that varies by caller is never to be cached across callers (A18).
    if (era === modern) expect(tools).toMatchObject({ cacheScope: 'private' });
    expect((await reader.listResources()).resources.map((item) => item.uri)).toEqual(['notes://index', 'ui://notes/board']);
    expect((await reader.listResourceTemplates()).resourceTemplates.map((item) => item.uriTemplate)).toEqual(['notes://{id}', 'skill://{+path}']);
    expect((await reader.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['summarize_notes']);
    expect(text(await reader.callTool({ name: 'search_notes', arguments: { query: 'nothing-like-this' } }))).toBe('No notes match "nothing-like-this".');
    expect((await reader.readResource({ uri: 'notes://index' })).contents[0].text).toEqual(expect.any(String));
    expect((await reader.getPrompt({ name: 'summarize_notes', arguments: {} })).messages).toHaveLength(1);
  });

  it('answers a reader calling create_note 403 insufficient_scope naming notes:write, with the request id (A8, A9, A10)', async () => {
    const refusals: Refusal[] = [];
    const reader = await connect(await token('ann', 'notes:read'), refusals);
    await expect(reader.callTool({ name: 'create_note', arguments: { title: 'No', body: 'not allowed' } })).rejects.toThrow();
    const refusal = refusals.at(-1)!;
    expect(refusal.status).toBe(403);
    expect(refusal.challenge).toMatch(/^Bearer error="insufficient_scope", resource_metadata="[^"]+", scope="notes:write"/);
    const body = JSON.parse(refusal.body) as { id: unknown; error: { code: number; data: unknown } };
    expect(body.id).not.toBeNull();
    expect(body.error).toMatchObject({ code: -31001, data: { error: 'insufficient_scope', scopes: ['notes:write'] } });
    // Nothing was written.
    expect(text(await reader.callTool({ name: 'search_notes', arguments: { query: 'not allowed' } }))).toBe('No notes match "not allowed".');
    // The other writes ask for the same scope.
    for (const [name, args] of [
      ['update_note', { id: 1, body: 'not allowed' }],
      ['draft_note', { topic: 'x' }],
      ['export_notes', {}],
    ] as const) {
      await expect(reader.callTool({ name, arguments: args })).rejects.toThrow();
      expect(refusals.at(-1)).toMatchObject({ status: 403, challenge: expect.stringMatching(/^Bearer error="insufficient_scope", .*scope="notes:write"/) });
    }
  });

  it('answers a token without notes:read 403 naming notes:read for search_notes, the resources and the prompt (A9)', async () => {
    const refusals: Refusal[] = [];
    const stranger = await connect(await token('dee', 'profile'), refusals);
    for (const attempt of [
      () => stranger.callTool({ name: 'search_notes', arguments: { query: 'x' } }),
      () => stranger.readResource({ uri: 'notes://index' }),
      () => stranger.readResource({ uri: 'notes://1' }),
      () => stranger.getPrompt({ name: 'summarize_notes', arguments: {} }),
    ]) {
      const before = refusals.length;
      await expect(attempt()).rejects.toThrow();
      expect(refusals.length).toBe(before + 1);
      expect(refusals.at(-1)!.status).toBe(403);
      expect(refusals.at(-1)!.challenge).toMatch(/^Bearer error="insufficient_scope", resource_metadata="[^"]+", scope="notes:read"/);
    }
  });

  it('serves a writer, and answers delete_note exactly as a tool that does not exist', async () => {
    const writer = await connect(await token('bo', 'notes:read notes:write'));
    const created = (await writer.callTool({ name: 'create_note', arguments: { title: 'Mine', body: 'by a writer' } })) as Result;
    const id = (created.structuredContent as { id: number }).id;
    expect(text(await writer.callTool({ name: 'update_note', arguments: { id, body: `changed by ${who('bo')}` } }))).toBe(`Updated #${id} Mine`);
    expect((await writer.listTools()).tools.map((tool) => tool.name)).not.toContain('delete_note');

    const hidden = await failure(writer.callTool({ name: 'delete_note', arguments: { id } }));
    const unknown = await failure(writer.callTool({ name: 'delete_notes', arguments: { id } }));
    expect(hidden).toMatchObject({ code: -32602 });
    expect(shape(hidden, 'delete_note')).toEqual(shape(unknown, 'delete_notes'));
    // Invalid arguments too: a hidden tool's schema cannot be probed.
    expect(shape(await failure(writer.callTool({ name: 'delete_note', arguments: { id: 'x' } })), 'delete_note')).toEqual(shape(unknown, 'delete_notes'));
    expect(text(await writer.callTool({ name: 'search_notes', arguments: { query: `changed by ${who('bo')}` } }))).toBe(`#${id} Mine`);
  });

  it('lets a notes:write token read too, through the implied scope (A11)', async () => {
    const writeOnly = await connect(await token('cy', 'notes:write'));
    expect(text(await writeOnly.callTool({ name: 'search_notes', arguments: { query: 'nothing-like-this' } }))).toBe('No notes match "nothing-like-this".');
    expect((await writeOnly.readResource({ uri: 'notes://index' })).contents).toHaveLength(1);
  });

  it('shows an admin delete_note, and lets it delete', async () => {
    const admin = await connect(await token('root', 'notes:read notes:write', { roles: ['admin'] }));
    expect((await admin.listTools()).tools.map((tool) => tool.name)).toContain('delete_note');
    const created = (await admin.callTool({ name: 'create_note', arguments: { title: 'Doomed', body: 'soon gone' } })) as Result;
    const id = (created.structuredContent as { id: number }).id;
    expect(text(await admin.callTool({ name: 'delete_note', arguments: { id } }))).toBe(`Deleted note #${id}.`);
    // A roles claim that is not an array of strings holding admin hides it as for anyone.
    const pretender = await connect(await token('eve', 'notes:read notes:write', { roles: 'admin' }));
    expect((await pretender.listTools()).tools.map((tool) => tool.name)).not.toContain('delete_note');
  });

  it("limits create_note to 30 calls a minute per subject: the 31st is the rate-limit isError, another subject's bucket is its own", async () => {
    const writer = await connect(await token('busy', 'notes:write'));
    for (let call = 1; call <= 30; call++) {
      const result = (await writer.callTool({ name: 'create_note', arguments: { title: `n${call}`, body: 'burst' } })) as Result;
      expect(result.isError).toBeFalsy();
    }
    const limited = (await writer.callTool({ name: 'create_note', arguments: { title: 'n31', body: 'burst' } })) as Result;
    expect(limited.isError).toBe(true);
    expect(text(limited)).toMatch(/^rate limit: retry in \d+ s$/);
    expect(limited._meta).toMatchObject({ 'io.mcpkit/rateLimit': { retryAfterMs: expect.any(Number) } });
    // Other tools and other subjects are not limited by it.
    expect((await writer.callTool({ name: 'search_notes', arguments: { query: 'n31' } })) as Result).not.toHaveProperty('isError', true);
    const other = await connect(await token('calm', 'notes:write'));
    expect(((await other.callTool({ name: 'create_note', arguments: { title: 'calm', body: 'one' } })) as Result).isError).toBeFalsy();
  });
});

describe('sessions and the audit trail of the authenticated notes app', () => {
  const initialize = (credential: string, session?: string) =>
    fetch(resource, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${credential}`,
        ...(session === undefined ? {} : { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }),
      },
      body: JSON.stringify(
        session === undefined
          ? {
              jsonrpc: '2.0',
              id: 0,
              method: 'initialize',
              params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
            }
          : { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_notes', arguments: { query: 'x' } } },
      ),
    });

  it("answers a handshake session used with another subject's token 404, as an unknown session (A14, case 17)", async () => {
    const ann = await as.mint({ aud: resource, sub: 'session-ann', scope: 'notes:read' });
    const bo = await as.mint({ aud: resource, sub: 'session-bo', scope: 'notes:read' });
    sent.push(ann, bo);
    const opened = await initialize(ann);
    const session = opened.headers.get('mcp-session-id')!;
    await opened.text();
    expect((await initialize(ann, session)).status).toBe(200);
    const stolen = await initialize(bo, session);
    const unknown = await initialize(bo, 'no-such-session');
    expect(stolen.status).toBe(404);
    expect(await stolen.text()).toBe(await unknown.text());
  });

  it('logs one audit line per call with the caller, the tool and the outcome, and no token anywhere (case 18)', async () => {
    type Line = { msg?: string; method?: string; target?: string; subject?: string; clientId?: string; outcome?: string; code?: number; ms?: number };
    const lines = () =>
      server.output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Line);
    const audit = (subject: string, target: string) => lines().filter((line) => line.msg === 'request' && line.subject === subject && line.target === target);
    // The log is written asynchronously: wait (bounded) for the last call of the file to be in it.
    const deadline = Date.now() + 5_000;
    while (audit('calm-m', 'create_note').length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    for (const era of ['h', 'm']) {
      expect(audit(`ann-${era}`, 'search_notes')[0]).toMatchObject({ method: 'tools/call', clientId: 'notes-e2e', outcome: 'ok', ms: expect.any(Number) });
      expect(audit(`ann-${era}`, 'create_note')[0]).toMatchObject({ outcome: 'denied', code: -31001 });
      expect(audit(`bo-${era}`, 'delete_note')[0]).toMatchObject({ outcome: 'hidden', code: -32602 });
      expect(audit(`busy-${era}`, 'create_note').map((line) => line.outcome)).toEqual([...Array<string>(30).fill('ok'), 'rate_limited']);
      expect(audit(`root-${era}`, 'delete_note')[0]).toMatchObject({ outcome: 'ok' });
    }
    // Arguments are not logged either: a note's text never reaches the log.
    expect(server.output).not.toContain('written after');
    expect(server.output).not.toContain('by a writer');
    expect(sent.length).toBeGreaterThan(20);
    for (const credential of sent) expect(server.output).not.toContain(credential);
  });
});

describe('the notes app over stdio with the authentication variables set', () => {
  it('stays unauthenticated: stdio takes no OAuth, its caller is whoever started the process', async () => {
    const client = new Client({ name: 'notes-auth-stdio', version: '1.0.0' });
    const env = { ...process.env, LOG_LEVEL: 'warn', NOTES_DB: join(dir, 'stdio.db'), NOTES_AUTH_ISSUER: as.issuer, NOTES_AUTH_RESOURCE: resource } as Record<
      string,
      string
    >;
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN, '--stdio'], env, stderr: 'pipe' }));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('delete_note');
      const created = await client.callTool({ name: 'create_note', arguments: { title: 'Local', body: 'no token needed' } });
      expect(created.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});
