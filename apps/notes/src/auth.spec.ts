import { InvalidTokenError } from '@mcpkit/http';
import { StubAuthorizationServer } from '@mcpkit/testing';
import { notesAuthFromEnv, notesHttpAuth } from './auth';

describe('the notes authenticated mode from the environment', () => {
  const issuer = 'https://example.eu.auth0.com/';
  const resource = 'https://notes.example.com/mcp';

  it('is off without either variable, and on with both', () => {
    expect(notesAuthFromEnv({})).toBeUndefined();
    expect(notesAuthFromEnv({ NOTES_AUTH_ISSUER: '', NOTES_AUTH_RESOURCE: '' })).toBeUndefined();
    expect(notesAuthFromEnv({ NOTES_AUTH_ISSUER: issuer, NOTES_AUTH_RESOURCE: resource })).toEqual({ issuer, resource });
  });

  it('refuses one without the other rather than serving everyone', () => {
    expect(() => notesAuthFromEnv({ NOTES_AUTH_ISSUER: issuer })).toThrow(/both NOTES_AUTH_ISSUER and NOTES_AUTH_RESOURCE/);
    expect(() => notesAuthFromEnv({ NOTES_AUTH_RESOURCE: resource })).toThrow(/both NOTES_AUTH_ISSUER and NOTES_AUTH_RESOURCE/);
  });

  it('reads the variables of another prefix for a server that mounts the notes', () => {
    expect(notesAuthFromEnv({ NOTES_AUTH_ISSUER: issuer, NOTES_AUTH_RESOURCE: resource }, 'GATEWAY')).toBeUndefined();
    expect(notesAuthFromEnv({ GATEWAY_AUTH_ISSUER: issuer, GATEWAY_AUTH_RESOURCE: resource, GATEWAY_AUTH_TYP: 'at+jwt' }, 'GATEWAY')).toEqual({
      issuer,
      resource,
      requireTyp: 'at+jwt',
    });
    expect(() => notesAuthFromEnv({ GATEWAY_AUTH_ISSUER: issuer }, 'GATEWAY')).toThrow(/both GATEWAY_AUTH_ISSUER and GATEWAY_AUTH_RESOURCE/);
  });

  it('refuses a relative URL in either', () => {
    expect(() => notesAuthFromEnv({ NOTES_AUTH_ISSUER: issuer, NOTES_AUTH_RESOURCE: '/mcp' })).toThrow(
      'NOTES_AUTH_RESOURCE must be an absolute URL, got "/mcp"',
    );
    expect(() => notesAuthFromEnv({ NOTES_AUTH_ISSUER: 'auth0', NOTES_AUTH_RESOURCE: resource })).toThrow(/NOTES_AUTH_ISSUER must be an absolute URL/);
  });

  it("makes a resource server for the resource, trusting the issuer, and accepts the resource's host besides loopback", async () => {
    const options = await notesHttpAuth({ issuer, resource });
    expect(options.auth).toMatchObject({ resource, authorizationServers: [issuer], scopesSupported: ['notes:read', 'notes:write'] });
    expect(options.allowedHosts).toEqual(['localhost', '127.0.0.1', '[::1]', 'notes.example.com']);
    expect((await notesHttpAuth({ issuer, resource }, 'mcpkit gateway')).auth).toMatchObject({ resourceName: 'mcpkit gateway' });
  });

  it('pins the JWT typ only when NOTES_AUTH_TYP says so (default: any, as most providers send JWT)', async () => {
    const as = await StubAuthorizationServer.start();
    try {
      const aud = 'http://127.0.0.1/mcp';
      const verifierOf = async (env: NodeJS.ProcessEnv) => {
        const options = await notesHttpAuth(notesAuthFromEnv({ NOTES_AUTH_ISSUER: as.issuer, NOTES_AUTH_RESOURCE: aud, ...env })!);
        const { verifier } = options.auth!;
        return verifier.forResource?.(aud) ?? verifier;
      };
      const [jwt, atJwt] = await Promise.all([as.mint({ aud, typ: 'JWT' }), as.mint({ aud })]);
      const any = await verifierOf({});
      expect((await any.verify(jwt)).subject).toBe('user-1');
      const pinned = await verifierOf({ NOTES_AUTH_TYP: 'at+jwt' });
      expect((await pinned.verify(atJwt)).subject).toBe('user-1');
      await expect(pinned.verify(jwt)).rejects.toBeInstanceOf(InvalidTokenError);
    } finally {
      await as.close();
    }
  });
});
