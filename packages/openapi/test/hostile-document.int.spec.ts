import { createApp } from '@mcpkit/core';
import { fromOpenApiSync } from '@mcpkit/openapi';
import { TestClient } from '@mcpkit/testing';

type Call = { url: string; headers: Headers };

/** A document whose one operation has the parameters given, and a stub API recording each call. */
function toolsOf(parameters: unknown[], path = '/x') {
  const calls: Call[] = [];
  const document = {
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: { [path]: { get: { operationId: 'op', parameters, responses: { '204': { description: 'done' } } } } },
  };
  const tools = fromOpenApiSync(JSON.parse(JSON.stringify(document)) as Record<string, unknown>, {
    baseUrl: 'https://api.test/v1',
    fetch: (async (url: URL, init: RequestInit) => {
      calls.push({ url: String(url), headers: init.headers as Headers });
      return new Response(null, { status: 204 });
    }) as unknown as typeof fetch,
  });
  return { tools, calls };
}

// Parameters named as Object.prototype's members: a JSON document may name them, and a plain
// assignment or lookup (ours, or ajv's for an optional property) would reach the prototype.
describe('fromOpenApi with parameters named __proto__, constructor, toString', () => {
  it('publishes them as `<in>_<name>` arguments and sends only what the caller gave', async () => {
    const { tools, calls } = toolsOf(
      [
        { name: '__proto__', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'constructor', in: 'query', schema: { type: 'string' } },
        { name: 'toString', in: 'header', schema: { type: 'string' } },
      ],
      '/x/{__proto__}',
    );
    expect(Object.keys(tools.operations[0]!.inputSchema.properties as object)).toEqual(['path___proto__', 'query_constructor', 'header_toString']);
    const client = await TestClient.connect(createApp({ name: 'proto', version: '1.0.0', providers: tools }));
    try {
      const result = await client.callTool('op', { path___proto__: 'a' });
      expect(result).toEqual({ content: [{ type: 'text', text: '204 (no body)' }] });
      await client.callTool('op', { path___proto__: 'b', query_constructor: 'c', header_toString: 'd' });
      expect(calls.map((call) => [call.url, call.headers.get('toString')])).toEqual([
        ['https://api.test/v1/x/a', null],
        ['https://api.test/v1/x/b?constructor=c', 'd'],
      ]);
    } finally {
      await client.close();
    }
  });
});
