import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpServerProcess, StubAuthorizationServer } from '@mcpkit/testing';
import { freePort } from '../../../../packages/redis/test/support/redis-server';
import { MAIN } from './notes-instances';

/** The notes process in its authenticated mode, the stub authorization server that issues its tokens, and its canonical URL. */
export interface AuthenticatedNotes {
  readonly server: HttpServerProcess;
  readonly as: StubAuthorizationServer;
  /** The endpoint's URL, as every token's `aud` names it. */
  readonly resource: string;
  /** Stops the process (expecting a clean exit), the authorization server, and removes the data. */
  stop(): Promise<void>;
}

/**
 * Starts the notes app with `NOTES_AUTH_ISSUER` and `NOTES_AUTH_RESOURCE` on a free port (the
 * canonical URL must be known before the process starts: it is in every token's `aud`), its
 * databases in a fresh folder named after `name`; `env` adds to or overrides its environment.
 */
export async function startAuthenticatedNotes(name: string, env: NodeJS.ProcessEnv = {}): Promise<AuthenticatedNotes> {
  const dir = mkdtempSync(join(tmpdir(), `mcpkit-notes-${name}-`));
  const as = await StubAuthorizationServer.start();
  const resource = `http://127.0.0.1:${await freePort()}/mcp`;
  const server = await HttpServerProcess.start(process.execPath, [MAIN], {
    PORT: new URL(resource).port,
    LOG_LEVEL: 'warn',
    NOTES_DB: join(dir, 'notes.db'),
    NOTES_EXPORT_DIR: join(dir, 'exports'),
    NOTES_AUTH_ISSUER: as.issuer,
    NOTES_AUTH_RESOURCE: resource,
    ...env,
  });
  return {
    server,
    as,
    resource,
    async stop() {
      expect(await server.stop()).toEqual({ code: 0, signal: null });
      await as.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
