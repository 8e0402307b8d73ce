import { createApp, RequireRoles, RequireScopes, Tool, type RequestContext } from '@mcpkit/core';
import { jwtVerifier } from '@mcpkit/http';
import { serveHttp } from '@mcpkit/fastify';
import { serveStdio } from '@mcpkit/stdio';

class Notes {
  @Tool({ description: 'Who am I?', input: null })
  whoami(_input: unknown, ctx: RequestContext): string {
    return `${ctx.auth?.subject ?? 'anonymous'} with ${ctx.auth?.scopes.join(' ') || 'no scopes'}`;
  }

  @Tool({ description: 'Writes a note', input: null })
  @RequireScopes('notes:write')
  write(): string {
    return 'written';
  }

  @Tool({ description: 'Deletes every note', input: null })
  @RequireRoles('admin', { claim: 'https://notes.example.com/roles' })
  purge(): string {
    return 'purged';
  }
}

export const app = createApp({ name: 'notes', version: '1.0.0', providers: [Notes], impliedScopes: { 'notes:write': ['notes:read'] } });

// Over HTTP: an OAuth 2.1 resource server. Values of an Auth0 tenant; any OAuth 2.1 / OIDC
// provider that issues JWT access tokens with a JWKS works the same way.
export function overHttp() {
  return serveHttp(app, {
    host: '0.0.0.0',
    port: 3000,
    allowedHosts: ['mcp.example.com'],
    auth: {
      resource: 'https://mcp.example.com/mcp', // exactly what tokens carry in aud
      authorizationServers: ['https://example.eu.auth0.com/'],
      verifier: jwtVerifier({ issuer: 'https://example.eu.auth0.com/' }),
      scopesSupported: ['notes:read', 'notes:write'],
    },
  });
}

// Over stdio: no OAuth; the caller comes from the environment.
export function overStdio() {
  return serveStdio(app, {
    auth: () => (process.env.NOTES_USER ? { subject: process.env.NOTES_USER, scopes: (process.env.NOTES_SCOPES ?? '').split(' ') } : undefined),
  });
}
