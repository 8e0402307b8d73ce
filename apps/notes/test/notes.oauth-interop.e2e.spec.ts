import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { HttpServerProcess, StubAuthorizationServer } from '@mcpkit/testing';
import { startAuthenticatedNotes, type AuthenticatedNotes } from './support/authenticated-notes';

// auth.md case 19: the official SDK v1 client, with its own OAuth machinery, finds its way to a
// token for the notes app on its own: 401 → Protected Resource Metadata → authorization server
// metadata → dynamic registration → authorize (PKCE) → token → retry, then a 403 step-up.

/**
 * A client's side of the flow: it keeps what the SDK hands it, and plays the user's browser at
 * `redirectToAuthorization` (the stub approves at once and redirects back with the code).
 */
class BrowserlessProvider implements OAuthClientProvider {
  readonly redirectUrl = 'http://127.0.0.1:9/callback';
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: 'notes-interop',
    redirect_uris: [this.redirectUrl],
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  /** The code of the last authorization, as the redirect carried it. */
  code: string | undefined;
  private client: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';

  clientInformation() {
    return this.client;
  }
  saveClientInformation(client: OAuthClientInformationMixed) {
    this.client = client;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  async redirectToAuthorization(url: URL) {
    const response = await fetch(url, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const back = new URL(response.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(this.redirectUrl);
    this.code = back.searchParams.get('code') ?? undefined;
  }
}

const text = (result: unknown): string => (result as { content: Array<{ text: string }> }).content[0]?.text ?? '';

describe('the official SDK v1 OAuth client against the authenticated notes app (auth.md case 19)', () => {
  let notes: AuthenticatedNotes;
  let as: StubAuthorizationServer;
  let server: HttpServerProcess;
  let resource: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    notes = await startAuthenticatedNotes('interop');
    ({ as, server, resource } = notes);
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await notes?.stop();
  });

  it('gets a token on its own after the 401, then steps up to notes:write after the 403', async () => {
    // The user grants reading only at first; writing once it is asked for on its own.
    let grantWrite = false;
    as.consent = (request) => ({
      scope: request.scope
        .split(' ')
        .filter((scope) => grantWrite || scope !== 'notes:write')
        .join(' '),
      sub: 'ada',
    });
    const provider = new BrowserlessProvider();

    // 401 → PRM → AS metadata → registration → authorize: the first connect ends at the browser.
    const first = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
    const refused = new Client({ name: 'notes-interop', version: '1.0.0' });
    clients.push(refused);
    await expect(refused.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(as.requests).toEqual(['GET /.well-known/oauth-authorization-server', 'POST /register', 'GET /authorize']);
    // The scopes of the 401 challenge, for the resource of the metadata (RFC 8707).
    expect(as.authorizations).toEqual([{ clientId: 'client-1', scope: 'notes:read notes:write', resource }]);
    expect(provider.code).toEqual(expect.any(String));

    // Back from the browser: the code and the PKCE verifier become a token, and the client reconnects.
    await first.finishAuth(provider.code!);
    expect(as.requests.at(-1)).toBe('POST /token');
    expect(provider.tokens()).toMatchObject({ token_type: 'Bearer', scope: 'notes:read' });
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
    const client = new Client({ name: 'notes-interop', version: '1.0.0' });
    clients.push(client);
    await client.connect(transport);
    expect(text(await client.callTool({ name: 'search_notes', arguments: { query: 'interop' } }))).toBe('No notes match "interop".');

    // 403 insufficient_scope naming notes:write → a second authorization for exactly that.
    grantWrite = true;
    const write = { name: 'create_note', arguments: { title: 'Interop', body: 'written after a step-up' } };
    await expect(client.callTool(write)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(as.authorizations.at(-1)).toEqual({ clientId: 'client-1', scope: 'notes:write', resource });
    await transport.finishAuth(provider.code!);
    expect(provider.tokens()).toMatchObject({ scope: 'notes:write' });
    const created = await client.callTool(write);
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent).toMatchObject({ title: 'Interop' });
    // notes:write implies notes:read: the stepped-up token still searches, in the same session.
    expect(text(await client.callTool({ name: 'search_notes', arguments: { query: 'step-up' } }))).toMatch(/^#\d+ Interop$/);
    // One registration for the whole flow; every token request came after an authorization.
    expect(as.requests.filter((request) => request === 'POST /register')).toHaveLength(1);
    expect(as.requests.filter((request) => request === 'POST /token')).toHaveLength(2);
  });
});
