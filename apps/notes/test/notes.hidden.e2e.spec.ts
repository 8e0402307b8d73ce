import { startAuthenticatedNotes, type AuthenticatedNotes } from './support/authenticated-notes';

// Issue #26 against the authenticated notes process, raw bytes on both eras, tokens from the stub
// authorization server: a reader (notes:read) cannot tell delete_note (admin only) from a tool
// that does not exist, however it calls it (item 3); a token without notes:read may not subscribe
// to what it may not read (item 7); scopes named `constructor`, `toString` or `__proto__` are
// scopes like any other (item 9).
type Answer = { status: number; body: string; challenge: string | null };
type Body = { jsonrpc: '2.0'; id: number; method: string; params: Record<string, unknown> };
type Send = (body: Body) => Promise<Answer>;
type Era = { name: string; modern: boolean; open(token: string): Promise<Send> };

let notes: AuthenticatedNotes;
let resource = '';

const base = (token: string) => ({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` });

async function answer(response: Response): Promise<Answer> {
  return { status: response.status, body: await response.text(), challenge: response.headers.get('www-authenticate') };
}

const handshake: Era = {
  name: 'the handshake era (2025-11-25)',
  modern: false,
  async open(token) {
    const opened = await fetch(resource, {
      method: 'POST',
      headers: base(token),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    const headers = { ...base(token), 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
    await opened.text();
    await (await fetch(resource, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
    return async (body) => answer(await fetch(resource, { method: 'POST', headers, body: JSON.stringify(body) }));
  },
};

const modern: Era = {
  name: '2026-07-28',
  modern: true,
  async open(token) {
    return async (body) => {
      const named = body.params.name ?? body.params.uri;
      const headers: Record<string, string> = { ...base(token), 'mcp-protocol-version': '2026-07-28', 'mcp-method': body.method };
      if (typeof named === 'string' && body.method !== 'subscriptions/listen') headers['mcp-name'] = named;
      const _meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': {},
      };
      return answer(await fetch(resource, { method: 'POST', headers, body: JSON.stringify({ ...body, params: { ...body.params, _meta } }) }));
    };
  },
};

beforeAll(async () => {
  notes = await startAuthenticatedNotes('hidden');
  resource = notes.resource;
});

afterAll(() => notes?.stop());

describe.each([handshake, modern])('the authenticated notes app on $name', (era) => {
  const token = (scope: string) => notes.as.mint({ aud: resource, sub: `hidden-${era.modern ? 'm' : 'h'}`, scope, claims: { client_id: 'notes-e2e' } });

  it('answers a reader delete_note called as a task, or with a malformed task, exactly as a tool that does not exist', async () => {
    const send = await era.open(await token('notes:read'));
    for (const task of [{}, 5, { ttl: 'x' }]) {
      const ask = (name: string): Body => ({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: { id: 1 }, task } });
      const hidden = await send(ask('delete_note'));
      const unknown = await send(ask('delete_nope'));
      expect({ ...hidden, body: hidden.body.split('delete_note').join('delete_nope') }).toEqual(unknown);
      expect(JSON.parse(unknown.body)).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'Unknown tool: delete_nope' } });
    }
    // Still serving, and the reader's own tools still work.
    const search = await send({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'search_notes', arguments: { query: 'nothing-like-this' } } });
    expect(JSON.parse(search.body)).toMatchObject({ result: { content: [{ text: 'No notes match "nothing-like-this".' }] } });
  });

  it('refuses a subscription to what the token may not read, exactly as the read (403 naming notes:read)', async () => {
    const send = await era.open(await token('profile'));
    for (const uri of ['notes://index', 'notes://1']) {
      const read = await send({ jsonrpc: '2.0', id: 9, method: 'resources/read', params: { uri } });
      expect(read.status).toBe(403);
      expect(read.challenge).toMatch(/^Bearer error="insufficient_scope", .*scope="notes:read"/);
      const subscribe: Body = era.modern
        ? { jsonrpc: '2.0', id: 9, method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: [uri] } } }
        : { jsonrpc: '2.0', id: 9, method: 'resources/subscribe', params: { uri } };
      expect(await send(subscribe)).toEqual(read);
    }
    // A reader may.
    const reader = await era.open(await token('notes:read'));
    if (!era.modern) {
      expect(await reader({ jsonrpc: '2.0', id: 10, method: 'resources/subscribe', params: { uri: 'notes://index' } })).toEqual({
        status: 200,
        body: '{"jsonrpc":"2.0","id":10,"result":{}}',
        challenge: null,
      });
    }
  });

  it('takes scopes named constructor, toString and __proto__ as scopes like any other: 403, not -32603 (item 9)', async () => {
    for (const scope of ['constructor', 'toString', '__proto__', 'constructor toString __proto__ hasOwnProperty']) {
      const send = await era.open(await token(scope));
      const search = await send({ jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'search_notes', arguments: { query: 'x' } } });
      expect(search.status).toBe(403);
      expect(JSON.parse(search.body)).toMatchObject({ error: { code: -31001, data: { error: 'insufficient_scope', scopes: ['notes:read'] } } });
    }
    // notes:write implies notes:read (impliedScopes), beside a scope named constructor.
    const writer = await era.open(await token('constructor notes:write'));
    const search = await writer({ jsonrpc: '2.0', id: 12, method: 'tools/call', params: { name: 'search_notes', arguments: { query: 'nothing-like-this' } } });
    expect(JSON.parse(search.body)).toMatchObject({ result: { content: [{ text: 'No notes match "nothing-like-this".' }] } });
    // Nothing threw on the server: no error line, no stack.
    expect(notes.server.output).not.toMatch(/"level":50/);
    expect(notes.server.output).not.toContain('"stack"');
  });
});
