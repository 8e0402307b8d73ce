import { createApp, Tool, type AuthInfo, type RequestContext } from '@mcpkit/core';
import pino from 'pino';
import { createFetchHandler, InvalidTokenError, type FetchHandler } from '../src';

// Issue #14, A14 (auth.md §5 case 17): a handshake-era session belongs to the subject that opened
// it; another subject's token on it answers exactly as an unknown session does.
const RESOURCE = 'http://localhost/mcp';
const HEADERS = { host: 'localhost', 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const TOKENS: Record<string, AuthInfo> = { ann: { subject: 'ann', scopes: [] }, bo: { subject: 'bo', scopes: [] } };

class Who {
  @Tool({ input: null })
  whoami(_input: unknown, ctx: RequestContext) {
    return ctx.auth!.subject;
  }
}

describe('sessions on a resource server', () => {
  let handler: FetchHandler;

  beforeEach(() => {
    handler = createFetchHandler(createApp({ name: 'who', version: '1', providers: [Who], logger: pino({ level: 'silent' }) }), {
      auth: {
        resource: RESOURCE,
        authorizationServers: ['https://as.example'],
        verifier: {
          verify: (token) => {
            const auth = TOKENS[token];
            if (!auth) throw new InvalidTokenError('unknown');
            return auth;
          },
        },
      },
    });
  });

  afterEach(() => handler.close());

  const post = (token: string, body: unknown, session?: string) =>
    handler(
      new Request(RESOURCE, {
        method: 'POST',
        headers: { ...HEADERS, authorization: `Bearer ${token}`, ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}) },
        body: JSON.stringify(body),
      }),
    );

  it('serves a session to the subject that opened it, and answers another subject 404 as for an unknown session (A14)', async () => {
    const opened = await post('ann', {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    expect(opened.status).toBe(200);
    const session = opened.headers.get('mcp-session-id')!;
    expect((await post('ann', { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } };
    const own = await post('ann', call, session);
    expect(own.status).toBe(200);
    expect(JSON.stringify(await own.json())).toContain('"text":"ann"');
    const stolen = await post('bo', call, session);
    const unknown = await post('bo', call, 'no-such-session');
    expect(stolen.status).toBe(404);
    expect(await stolen.text()).toBe(await unknown.text());
    const get = await handler(
      new Request(RESOURCE, { headers: { host: 'localhost', accept: 'text/event-stream', authorization: 'Bearer bo', 'mcp-session-id': session } }),
    );
    expect(get.status).toBe(404);
  });
});
