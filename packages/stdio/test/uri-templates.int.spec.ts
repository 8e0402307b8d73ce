import { join } from 'node:path';
import { RawStdioClient } from '@mcpkit/testing';

// Issue #26 item 2, end to end over real stdio: the URIs that froze a server whose templates
// have ordinary shapes (each template was a backtracking regex, and nothing else was answered
// meanwhile), then the bound on a URI's length on every method that takes one.
const SERVER = join(__dirname, 'fixtures', 'templates-server.js');
const ENV = { ...process.env, LOG_LEVEL: 'warn' };
const MODERN = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

// The reproductions, byte for byte: 21 s, 7 s, 226 s and 1 s before.
const MATRIX = `matrix://grid${';'.repeat(32)}/`;
const LOG_4000 = `log://${'-'.repeat(4_000)}/`;
const LOG_8000 = `log://${'-'.repeat(8_000)}/`;
const FILE_80007 = `file://${'a.'.repeat(40_000)}`;

/** How an error's data quotes a URI (clip: 200 characters, then how many more). */
const quoted = (uri: string) => (uri.length <= 200 ? uri : `${uri.slice(0, 200)}…(${uri.length - 200} more characters)`);
const notFound = (uri: string) => ({ code: -32002, message: 'Resource not found', data: { uri: quoted(uri) } });

function spawnServer(env: Record<string, string> = {}): RawStdioClient {
  return RawStdioClient.spawn(process.execPath, [SERVER], { ...ENV, ...env });
}

describe('resource templates against hostile URIs over stdio', () => {
  let server: RawStdioClient;
  let reads = 0;

  beforeAll(async () => {
    server = spawnServer();
    await server.initialize();
  });

  afterAll(async () => {
    server.kill();
    await server.exited;
  });

  /** The same process still reads a resource, and stdout carried nothing but JSON. */
  async function expectServing(): Promise<void> {
    const x = ++reads;
    const uri = `matrix://grid;x=${x};y=2`;
    expect(await server.request('resources/read', { uri })).toMatchObject({ result: { contents: [{ uri, text: `cell ${x},2` }] } });
    expect(server.stray).toEqual([]);
  }

  it.each([
    ['matrix://grid{;x,y} with matrix://grid + 32 ";" + "/"', MATRIX],
    ['log://{day}-{level}-{service} with 4 000 "-" + "/"', LOG_4000],
    ['log://{day}-{level}-{service} with 8 000 "-" + "/"', LOG_8000],
  ])('answers %s as not found at once, and serves on', async (_name, uri) => {
    expect(await server.request('resources/read', { uri })).toMatchObject({ error: notFound(uri) });
    await expectServing();
  });

  it('reads what the templates match, as before', async () => {
    const text = async (uri: string) => ((await server.request('resources/read', { uri })) as any).result?.contents[0].text;
    expect(await text('log://2026-07-28-error-billing')).toBe('2026 07 28-error-billing');
    expect(await text(`log://${'-'.repeat(8_000)}`)).toBe(`- - ${'-'.repeat(7_996)}`);
    expect(await text(`file://${'a.'.repeat(4_000)}`)).toBe('1 . 7998');
    await expectServing();
  });

  // #26 review, finding 8: notes://1,999 read note 1 under the URI asked for (the rest dropped),
  // files:///docs/a,b.md read "docs/a", repo://me/a/b read name "a".
  it('reads a list into no scalar variable: notes://1,999 is not found; {+path} keeps its comma; and serves on', async () => {
    const text = async (uri: string) => ((await server.request('resources/read', { uri })) as any).result?.contents[0].text;
    expect(await server.request('resources/read', { uri: 'notes://1,999' })).toMatchObject({ error: notFound('notes://1,999') });
    expect(await server.request('resources/read', { uri: 'repo://me/a/b' })).toMatchObject({ error: notFound('repo://me/a/b') });
    expect(await text('notes://1')).toBe('note 1');
    expect(await text('notes://1%2C999')).toBe('note 1,999');
    expect(await text('files:///docs/a,b.md')).toBe('path docs/a,b.md');
    expect(await text('repo://me/a%2Fb')).toBe('repo me a/b');
    await expectServing();
  });

  it('refuses a URI over 8 192 characters with -32602 on every method that takes one, and serves on', async () => {
    const tooLong = (what: string) => ({ code: -32602, message: `${what} is 80007 characters long, over the limit of 8192 (maxUriLength)` });
    expect(await server.request('resources/read', { uri: FILE_80007 })).toMatchObject({ error: tooLong('resources/read params.uri') });
    expect(await server.request('resources/subscribe', { uri: FILE_80007 })).toMatchObject({ error: tooLong('resources/subscribe params.uri') });
    expect(await server.request('resources/unsubscribe', { uri: FILE_80007 })).toMatchObject({ error: tooLong('resources/unsubscribe params.uri') });
    const completion = { ref: { type: 'ref/resource', uri: FILE_80007 }, argument: { name: 'level', value: 'e' } };
    expect(await server.request('completion/complete', completion)).toMatchObject({ error: tooLong('completion/complete params.ref.uri') });
    expect(await server.request('resources/read', { uri: FILE_80007, _meta: MODERN })).toMatchObject({ error: tooLong('resources/read params.uri') });
    server.send({
      jsonrpc: '2.0',
      id: 'listen',
      method: 'subscriptions/listen',
      params: { notifications: { resourceSubscriptions: ['log://a-b-c', FILE_80007] }, _meta: MODERN },
    });
    expect(await server.waitFor((message) => message.id === 'listen')).toMatchObject({
      error: tooLong('subscriptions/listen params.notifications.resourceSubscriptions[]'),
    });
    expect(server.messages.filter((message) => message.method === 'notifications/subscriptions/acknowledged')).toEqual([]);
    await expectServing();
  });

  it('takes a URI of exactly 8 192 characters everywhere', async () => {
    const longest = `file://${'a.'.repeat(4_092)}a`;
    expect(longest).toHaveLength(8_192);
    expect(await server.request('resources/read', { uri: longest })).toMatchObject({ result: { contents: [{ text: '1 . 8183' }] } });
    expect(await server.request('resources/subscribe', { uri: longest })).toMatchObject({ result: {} });
    expect(await server.request('resources/unsubscribe', { uri: longest })).toMatchObject({ result: {} });
    const completion = { ref: { type: 'ref/resource', uri: longest }, argument: { name: 'level', value: 'e' } };
    expect(await server.request('completion/complete', completion)).toMatchObject({
      error: { code: -32602, message: `Unknown resource template: ${quoted(longest)}` },
    });
    server.send({
      jsonrpc: '2.0',
      id: 'listen-ok',
      method: 'subscriptions/listen',
      params: { notifications: { resourceSubscriptions: [longest] }, _meta: MODERN },
    });
    const acknowledged = await server.waitFor((message) => message.method === 'notifications/subscriptions/acknowledged');
    expect(acknowledged).toMatchObject({ params: { notifications: { resourceSubscriptions: [longest] } } });
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'listen-ok', _meta: MODERN } });
    await expectServing();
  });
});

describe('resource templates with maxUriLength raised', () => {
  let server: RawStdioClient;

  beforeAll(() => {
    server = spawnServer({ MAX_URI_LENGTH: '100000' });
  });

  afterAll(async () => {
    server.kill();
    await server.exited;
  });

  it('matches the 80 007-character URI of the issue, and answers its failing twin as not found', async () => {
    await server.initialize();
    expect(await server.request('resources/read', { uri: FILE_80007 })).toMatchObject({ result: { contents: [{ text: '1 . 79998' }] } });
    expect(await server.request('resources/read', { uri: `${FILE_80007}/` })).toMatchObject({ error: notFound(`${FILE_80007}/`) });
    expect(await server.request('resources/read', { uri: MATRIX })).toMatchObject({ error: notFound(MATRIX) });
  });
});
