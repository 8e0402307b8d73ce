import { join } from 'node:path';
import { HttpServerProcess, type StubAuthorizationServer } from '@mcpkit/testing';
import { freePort } from '../../../../packages/redis/test/support/redis-server';
import { MAIN } from './notes-instances';

/**
 * The built notes app over HTTP in its authenticated mode, tokens from `as`, its databases in
 * `dir`, at `LOG_LEVEL=info` (the audit line). The canonical URL must be known before the server
 * starts (it is in every token's `aud`): a free port is chosen first.
 */
export async function startAuthenticatedNotes(as: StubAuthorizationServer, dir: string): Promise<{ server: HttpServerProcess; resource: string }> {
  const port = await freePort();
  const resource = `http://127.0.0.1:${port}/mcp`;
  const server = await HttpServerProcess.start(process.execPath, [MAIN], {
    PORT: String(port),
    LOG_LEVEL: 'info',
    NOTES_DB: join(dir, 'notes.db'),
    NOTES_EXPORT_DIR: join(dir, 'exports'),
    NOTES_AUTH_ISSUER: as.issuer,
    NOTES_AUTH_RESOURCE: resource,
  });
  return { server, resource };
}
