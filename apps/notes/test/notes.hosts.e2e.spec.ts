import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpServerProcess } from '@mcpkit/testing';

const MAIN = join(__dirname, '..', 'dist', 'main.js');
const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

/** An initialize POST to `url` whose `Host` header says `host` (fetch cannot set it). */
function initializeAs(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: 'POST', setHost: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode!));
    });
    outgoing.on('error', reject);
    outgoing.setHeader('host', host);
    outgoing.setHeader('content-type', 'application/json');
    outgoing.setHeader('accept', 'application/json, text/event-stream');
    outgoing.end(INIT);
  });
}

describe('notes over HTTP with NOTES_ALLOWED_HOSTS (built app)', () => {
  let dir: string;
  let server: HttpServerProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcpkit-notes-hosts-'));
    server = await HttpServerProcess.start(process.execPath, [MAIN], {
      LOG_LEVEL: 'warn',
      NOTES_DB: join(dir, 'notes.db'),
      NOTES_ALLOWED_HOSTS: ' notes.example.com, mcp.internal:8443 ,',
    });
  });

  afterAll(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the names it lists (any port for a bare name, that port for host:port) and loopback; 403 for any other Host', async () => {
    const port = new URL(server.url).port;
    const statuses: Record<string, number> = {};
    for (const host of [
      'notes.example.com',
      'NOTES.example.com:443',
      'mcp.internal:8443',
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      'mcp.internal:9',
      'evil.example',
      'example.com',
    ]) {
      statuses[host] = await initializeAs(server.url, host);
    }
    expect(statuses).toEqual({
      'notes.example.com': 200,
      'NOTES.example.com:443': 200,
      'mcp.internal:8443': 200,
      [`127.0.0.1:${port}`]: 200,
      [`localhost:${port}`]: 200,
      'mcp.internal:9': 403,
      'evil.example': 403,
      'example.com': 403,
    });
  });

  it('refuses to start with an entry that is no host name', async () => {
    await expect(
      HttpServerProcess.start(process.execPath, [MAIN], { NOTES_DB: join(dir, 'other.db'), NOTES_ALLOWED_HOSTS: 'https://notes.example.com/' }, 10_000),
    ).rejects.toThrow(/NOTES_ALLOWED_HOSTS: "https:\/\/notes.example.com\/" is not a host name/);
  });
});
