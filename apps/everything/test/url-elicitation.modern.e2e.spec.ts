import { join } from 'node:path';
import { RawStdioClient } from '@mcpkit/testing';

// test_url_elicitation of the built everything app, called as a 2026-07-28 client over stdio with
// raw JSON lines (issue #11, item 10): URL elicitation is a question of an input-required round.
const MAIN = join(__dirname, '..', 'dist', 'main.js');

function meta(capabilities: Record<string, unknown>) {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  };
}

type Message = Record<string, unknown> & { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };

describe('everything over stdio: URL elicitation on 2026-07-28', () => {
  let server: RawStdioClient;

  beforeEach(() => {
    server = RawStdioClient.spawn(process.execPath, [MAIN, 'stdio'], { ...process.env, LOG_LEVEL: 'warn' });
  });

  afterEach(async () => {
    server.kill();
    await server.exited;
  });

  async function call(id: number, params: Record<string, unknown>): Promise<Message> {
    server.send({ jsonrpc: '2.0', id, method: 'tools/call', params });
    return (await server.waitFor((message) => message.id === id)) as Message;
  }

  it('asks with { mode: "url", message, url } and completes on the retry', async () => {
    const capabilities = meta({ elicitation: { form: {}, url: {} } });
    const first = await call(1, { _meta: capabilities, name: 'test_url_elicitation', arguments: {} });
    expect(first.result).toEqual({
      resultType: 'input_required',
      inputRequests: {
        'elicitation-1': { method: 'elicitation/create', params: { mode: 'url', message: 'Authorize the demo service', url: 'https://example.com/authorize' } },
      },
      requestState: expect.any(String),
      _meta: expect.any(Object),
    });
    const second = await call(2, {
      _meta: capabilities,
      name: 'test_url_elicitation',
      arguments: {},
      requestState: first.result!.requestState,
      inputResponses: { 'elicitation-1': { action: 'accept' } },
    });
    expect(second.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'URL elicitation: action=accept' }] });
    // No notifications/elicitation/complete on 2026-07-28: only the two answers came back.
    expect(server.messages.filter((message) => message.method !== undefined)).toEqual([]);
    expect(server.stray).toEqual([]);
  });

  it('answers a client without elicitation.url with -32021, then serves it', async () => {
    const refused = await call(3, { _meta: meta({ elicitation: { form: {} } }), name: 'test_url_elicitation', arguments: {} });
    expect(refused.error).toEqual({
      code: -32021,
      message: 'Missing required client capability: elicitation.url',
      data: { requiredCapabilities: { elicitation: { url: {} } } },
    });
    const served = await call(4, { _meta: meta({}), name: 'test_simple_text', arguments: {} });
    expect(served.result).toMatchObject({ resultType: 'complete' });
  });
});
