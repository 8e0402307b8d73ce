import { createApp, defineTool } from '@mcpkit/core';
import pino from 'pino';
import { createFetchHandler } from '../src';

// searchTools on stateless HTTP (#30): each request is a connection of its own, so what a search
// found joins no list and no client is told its list changed.
const URL_ = 'http://localhost/mcp';
const HEADERS = { host: 'localhost', 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

function app() {
  const tools = ['create_note', 'delete_note'].map((name) => defineTool({ name, description: `${name.replace('_', 's a ')}` }, () => name));
  return createApp({ name: 's', version: '1', providers: tools, transforms: [{ searchTools: true }], logger: pino({ level: 'silent' }) });
}

const post = async (handler: ReturnType<typeof createFetchHandler>, id: number, method: string, params: Record<string, unknown>) => {
  const response = await handler(new Request(URL_, { method: 'POST', headers: HEADERS, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) }));
  return { type: response.headers.get('content-type'), body: await response.text() };
};

describe('searchTools on stateless HTTP', () => {
  it('answers the search alone (no list_changed), and tools/list stays the search tool', async () => {
    const handler = createFetchHandler(app(), { sessions: false });
    const search = await post(handler, 1, 'tools/call', { name: 'search_tools', arguments: { query: 'delete a note' } });
    expect(search.type).toMatch(/^application\/json/);
    expect(search.body).not.toContain('list_changed');
    expect(JSON.parse(JSON.parse(search.body).result.content[0].text).tools[0].name).toBe('delete_note');
    const list = await post(handler, 2, 'tools/list', {});
    expect(JSON.parse(list.body).result.tools.map((tool: { name: string }) => tool.name)).toEqual(['search_tools']);
  });
});
