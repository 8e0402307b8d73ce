import { join } from 'node:path';
import { RawStdioClient } from '@mcpkit/testing';

// Issue #27 item 9: an interceptor that calls next() twice (a naive retry) used to run the handler
// twice. Over real stdio: the second next() rejects, the call fails like any error an interceptor
// throws (an isError result that names no internals; the log says why), the handler ran once, and the server serves on.
const SERVER = join(__dirname, 'fixtures', 'twice-server.js');

describe('an interceptor that calls next() twice, over stdio', () => {
  let server: RawStdioClient;

  beforeAll(async () => {
    server = RawStdioClient.spawn(process.execPath, [SERVER], { ...process.env, LOG_LEVEL: 'error' });
    await server.initialize();
  });

  afterAll(async () => {
    server.kill();
    await server.exited;
  });

  it('runs the handler once, answers the masked isError result of a thrown error, logs why, and serves on', async () => {
    const answer = await server.request('tools/call', { name: 'bump', arguments: {} });
    expect(answer).toEqual({
      jsonrpc: '2.0',
      id: answer.id,
      result: { content: [{ type: 'text', text: 'Tool bump failed with an internal error; details are in the server log.' }], isError: true },
    });
    expect(await server.request('tools/call', { name: 'runs', arguments: {} })).toMatchObject({ result: { content: [{ type: 'text', text: '1' }] } });
    expect(server.stray).toEqual([]);
    // The logger flushes its buffer at the latest on exit: EOF ends the server cleanly.
    expect(await server.end()).toMatchObject({ code: 0 });
    const logged = server.stderr.split('\n').filter((line) => line.includes('next() called multiple times'));
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0])).toMatchObject({ level: 50, target: 'bump', err: { message: 'next() called multiple times by the interceptor RetryTwice' } });
  });
});
