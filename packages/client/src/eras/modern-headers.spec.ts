import { decodeHeader } from '@mcpkit/core/transport';
import { headerValue, modernHeaders } from './modern-headers';

describe('2026-07-28 request headers', () => {
  it.each(['echo', 'test://a b', 'x=?base64?y'])('sends %j as is when it is plain visible ASCII', (value) => {
    expect(headerValue(value)).toBe(value);
  });

  it.each(['café', ' padded ', 'tab\there', '=?base64?aGk=?=', ''])('sends %j in the base64 form the server decodes back', (value) => {
    const sent = headerValue(value);
    expect(sent).toMatch(/^=\?base64\?[A-Za-z0-9+/=]*\?=$/);
    expect(decodeHeader('Mcp-Name', sent) ?? '').toBe(value);
  });

  it('names the method, and the tool, prompt, resource or task the request is about', () => {
    expect(modernHeaders({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toEqual({ 'mcp-method': 'tools/list' });
    expect(modernHeaders({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add' } })).toEqual({ 'mcp-method': 'tools/call', 'mcp-name': 'add' });
    expect(modernHeaders({ jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'greet' } })).toMatchObject({ 'mcp-name': 'greet' });
    expect(modernHeaders({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'test://x' } })).toMatchObject({ 'mcp-name': 'test://x' });
    expect(modernHeaders({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { taskId: 't1' } })).toMatchObject({ 'mcp-name': 't1' });
    expect(modernHeaders({ jsonrpc: '2.0', id: 1, result: {} })).toEqual({});
  });
});
