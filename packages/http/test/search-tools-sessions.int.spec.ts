import { createApp, defineTool } from '@mcpkit/core';
import pino from 'pino';
import { createFetchHandler } from '../src';

// searchTools on Streamable HTTP with sessions (#30), as a client sees the wire: a search's
// list_changed comes once, on the search's own stream, to that session alone; the found tool
// joins that session's tools/list and no other's.
const URL_ = 'http://localhost/mcp';
const VERSION = '2025-11-25';
const BASE = { host: 'localhost', 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const LIST_CHANGED = 'notifications/tools/list_changed';

function app() {
  const tools = ['create_note', 'delete_note', 'ping'].map((name) => defineTool({ name, description: `${name.replace('_', 's a ')}` }, () => name));
  return createApp({ name: 's', version: '1', providers: tools, transforms: [{ searchTools: { keep: ['ping'] } }], logger: pino({ level: 'silent' }) });
}

type Handler = ReturnType<typeof createFetchHandler>;

/** The JSON-RPC messages of an answer, whether JSON or an SSE stream (its priming event has no data). */
async function messages(response: Response): Promise<Array<Record<string, unknown>>> {
  const body = await response.text();
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) return body === '' ? [] : [JSON.parse(body) as Record<string, unknown>];
  return body
    .split('\n')
    .filter((line) => line.startsWith('data:') && line.slice(5).trim() !== '')
    .map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>);
}

async function open(handler: Handler): Promise<(id: number, method: string, params?: Record<string, unknown>) => Promise<Array<Record<string, unknown>>>> {
  const init = await handler(
    new Request(URL_, {
      method: 'POST',
      headers: BASE,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    }),
  );
  const session = init.headers.get('mcp-session-id')!;
  await init.text();
  const headers = { ...BASE, 'mcp-session-id': session, 'mcp-protocol-version': VERSION };
  await handler(new Request(URL_, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) }));
  return async (id, method, params = {}) =>
    messages(await handler(new Request(URL_, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) })));
}

const toolNames = (answer: Array<Record<string, unknown>>) =>
  (answer.find((message) => 'result' in message)!.result as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);

describe('searchTools on Streamable HTTP with sessions', () => {
  it("tells the searching session once, on the search's stream, and lists the found tool for it alone", async () => {
    const handler = createFetchHandler(app());
    const [searcher, bystander] = [await open(handler), await open(handler)];
    const search = await searcher(1, 'tools/call', { name: 'search_tools', arguments: { query: 'delete a note', limit: 1 } });
    expect(search.filter((message) => message.method === LIST_CHANGED)).toHaveLength(1);
    // The notification comes before the answer: a client re-lists knowing what the search found.
    expect(search.findIndex((message) => message.method === LIST_CHANGED)).toBeLessThan(search.findIndex((message) => 'result' in message));
    expect(toolNames(await searcher(2, 'tools/list'))).toEqual(['search_tools', 'ping', 'delete_note']);
    expect(toolNames(await bystander(3, 'tools/list'))).toEqual(['search_tools', 'ping']);
    // Found again: nothing changed, nothing sent.
    expect(
      (await searcher(4, 'tools/call', { name: 'search_tools', arguments: { query: 'delete a note', limit: 1 } })).some(
        (message) => message.method === LIST_CHANGED,
      ),
    ).toBe(false);
    // The bystander's own search tells the bystander, not the searcher.
    const other = await bystander(5, 'tools/call', { name: 'search_tools', arguments: { query: 'create a note', limit: 1 } });
    expect(other.filter((message) => message.method === LIST_CHANGED)).toHaveLength(1);
    expect(toolNames(await bystander(6, 'tools/list'))).toEqual(['search_tools', 'ping', 'create_note']);
    expect(toolNames(await searcher(7, 'tools/list'))).toEqual(['search_tools', 'ping', 'delete_note']);
  });
});
