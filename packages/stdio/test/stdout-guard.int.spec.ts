import { join } from 'node:path';
import { RawStdioClient } from '@mcpkit/testing';

describe('stdout guard', () => {
  it('keeps stray console.log and process.stdout.write off the protocol stream', async () => {
    const server = RawStdioClient.spawn(process.execPath, [join(__dirname, 'fixtures', 'chatty-server.js')]);
    try {
      await server.initialize();
      expect(await server.request('tools/call', { name: 'shout', arguments: {} })).toMatchObject({ result: { content: [{ text: 'done' }] } });
      expect(await server.end()).toEqual({ code: 0, signal: null });
      // Only what was printed before serveStdio started reaches stdout unguarded.
      expect(server.stray).toEqual(['printed before serving']);
      expect(server.stderr).toContain('a stray console.log');
      expect(server.stderr).toContain('a stray write');
      expect(server.stderr).toContain('printed after serving');
    } finally {
      server.kill();
    }
  });
});
