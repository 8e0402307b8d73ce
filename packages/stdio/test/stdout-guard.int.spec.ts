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

  it('logs the warnings of reading the options to stderr when the app logger writes to stdout', async () => {
    const server = RawStdioClient.spawn(process.execPath, [join(__dirname, 'fixtures', 'stdout-logger-server.js')]);
    try {
      await server.initialize();
      expect(await server.request('tools/call', { name: 'hi', arguments: {} })).toMatchObject({ result: { content: [{ text: 'hello' }] } });
      expect(await server.end()).toEqual({ code: 0, signal: null });
      // stdout carries JSON-RPC only: no log line, not even the deprecation warning.
      expect(server.stray).toEqual([]);
      expect(server.stderr).toContain('serveStdio: option \\"maxMessageSize\\" is deprecated');
      expect(server.stderr).toContain('the app logger writes to stdout');
    } finally {
      server.kill();
    }
  });
});
