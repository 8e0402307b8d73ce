import pino from 'pino';
import { createFetchHandler, type FetchHandler } from '../src';
import { fixtureApp } from '../../fastify/test/fixture-app';

// An answer over maxResponseBytes is dropped for a -32603 error: its request line must say so.

const HEADERS = { host: 'localhost', 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
const call = (id: number, text: string) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } });

describe('an answer over maxResponseBytes, over HTTP', () => {
  let handler: FetchHandler;
  afterEach(async () => {
    await handler?.close();
  });

  it.each(['json', 'sse'] as const)('in %s response mode: the client gets -32603, and the request line says error -32603', async (responseMode) => {
    const logged: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line) as Record<string, unknown>) });
    handler = createFetchHandler(fixtureApp(logger), {
      sessions: false,
      maxResponseBytes: 300,
      responseMode,
    });
    const post = async (id: number, text: string) => {
      const response = await handler(new Request('http://localhost/mcp', { method: 'POST', headers: HEADERS, body: call(id, text) }));
      const body = await response.text();
      return JSON.parse(responseMode === 'json' ? body : body.split('data: ')[1]) as Record<string, unknown>;
    };
    expect(await post(1, 'short')).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: 'short|stateless' }] } });
    expect(await post(2, 'x'.repeat(1_000))).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'The response would exceed 300 bytes' } });
    const outcomes = logged.filter((line) => line.method === 'tools/call' && 'outcome' in line).map((line) => line.outcome);
    expect(outcomes).toEqual(['ok', 'error -32603']);
    expect(logged.filter((line) => line.msg === 'dropped an outgoing message: The response would exceed 300 bytes')).toHaveLength(1);
  });
});
