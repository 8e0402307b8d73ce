import { join } from 'node:path';
import { RawStdioClient } from '@mcpkit/testing';

// The #26 review's findings 1 and 7, end to end over real stdio: patterns createApp accepted and
// that then froze the server on one short value (^(?:\w{1,10}\s?){1,10}$: 112 s for 46
// characters, initialize and ping waiting behind it) are refused at start-up; the rewrites the
// refusal suggests serve the same hostile values at once.
const SERVER = join(__dirname, 'fixtures', 'patterns-server.js');

function spawnServer(patterns: Record<string, string>): RawStdioClient {
  return RawStdioClient.spawn(process.execPath, [SERVER], { ...process.env, LOG_LEVEL: 'warn', PATTERNS: JSON.stringify(patterns) });
}

describe('patterns a crafted value makes slow, over stdio', () => {
  it.each([
    [
      'counted copies (finding 1)',
      '^(?:\\w{1,10}\\s?){1,10}$',
      'whose counted repetition (?:\\w{1,10}\\s?){1,10} can share one text out among its copies in more than 1000 ways',
    ],
    ['three neighbouring repetitions (finding 7)', '^[A-Z0-9]+-?[A-Z0-9]+-?[A-Z0-9]+$', 'the time to reject a value grows as the cube of its length (n^3)'],
  ])('refuses %s at start-up: the process exits before it serves', async (_name, pattern, why) => {
    const server = spawnServer({ value: pattern });
    // Before the fix the server started and answered initialize; now it exits first.
    const answered = new Promise((resolve) => server.child.stdout.once('data', () => resolve('answered initialize')));
    server.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    expect(await Promise.race([server.exited, answered])).toEqual({ code: 1, signal: null });
    expect(server.stderr).toContain('MCPKIT_ERR_UNSAFE_PATTERN');
    expect(server.stderr).toContain(`The inputSchema of defineTool("check") (at #/properties/value/pattern) has the pattern /${pattern}/u, `);
    expect(server.stderr).toContain(why);
    expect(server.messages).toEqual([]);
  });

  it('serves the rewrites the refusals suggest: the same hostile values are refused as arguments at once, and a ping answered behind them', async () => {
    const server = spawnServer({ words: '^\\w{1,10}(?:\\s\\w{1,10}){0,9}$', code: '^[A-Z0-9]+(?:-[A-Z0-9]+){0,2}$' });
    try {
      await server.initialize();
      server.send({ jsonrpc: '2.0', id: 'words', method: 'tools/call', params: { name: 'check', arguments: { words: `${'a'.repeat(45)}!` } } });
      server.send({ jsonrpc: '2.0', id: 'code', method: 'tools/call', params: { name: 'check', arguments: { code: `${'A'.repeat(4_000)}!` } } });
      server.send({ jsonrpc: '2.0', id: 'ping', method: 'ping' });
      const invalid = (field: string) => ({ result: { isError: true, content: [{ type: 'text', text: expect.stringContaining(field) }] } });
      expect(await server.waitFor((message) => message.id === 'words')).toMatchObject(invalid('words'));
      expect(await server.waitFor((message) => message.id === 'code')).toMatchObject(invalid('code'));
      expect(await server.waitFor((message) => message.id === 'ping')).toMatchObject({ result: {} });
      expect(await server.request('tools/call', { name: 'check', arguments: { words: 'two words', code: 'AB-12' } })).toMatchObject({
        result: { content: [{ type: 'text', text: 'words,code' }] },
      });
      expect(server.stray).toEqual([]);
    } finally {
      server.kill();
      await server.exited;
    }
  });
});
