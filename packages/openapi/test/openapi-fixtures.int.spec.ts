import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { createApp } from '@mcpkit/core';
import { TestClient } from '@mcpkit/testing';
import { fromOpenApi, fromOpenApiSync } from '@mcpkit/openapi';

const FIXTURES = join(__dirname, 'fixtures');

/** Every operation of a document as `METHOD path`, read from the YAML itself, not through the package. */
function operationsOf(file: string): string[] {
  const document = parseYaml(readFileSync(join(FIXTURES, file), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
  return Object.entries(document.paths).flatMap(([path, item]) =>
    methods.filter((method) => item[method] !== undefined).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

// Two real public documents (fixtures/README.md): every operation is a tool, published with
// schemas core accepts, and every example the document gives for an operation's arguments is
// accepted by the tool's own validation (core's ajv, as for a decorated tool): the call reaches
// the API (a stub fetch that counts).
describe.each([
  ['petstore-3.0.yaml', 19, 7],
  ['tictactoe-3.1.yaml', 3, 2],
])('%s', (file, operationCount, exampleCount) => {
  it('offers every operation as a tool whose input accepts the document’s examples', async () => {
    const sent: string[] = [];
    const fetch = async (url: string | URL | Request, init?: RequestInit) => {
      sent.push(`${init?.method} ${String(url)}`);
      // An error answer: it shows the call reached the API, and checks no output against the operation's schema.
      return new Response('{"title":"stub"}', { status: 503, headers: { 'content-type': 'application/problem+json' } });
    };
    const tools = await fromOpenApi(join(FIXTURES, file), { baseUrl: 'http://api.test', fetch: fetch as typeof globalThis.fetch });
    expect(tools.operations.map((operation) => `${operation.request.method} ${operation.request.path}`).sort()).toEqual(operationsOf(file).sort());
    expect(tools).toHaveLength(operationCount);

    const client = await TestClient.connect(createApp({ name: 'fixture', version: '1.0.0', providers: tools }));
    try {
      const listed = await client.listTools();
      expect(listed.map((tool) => tool.name).sort()).toEqual(tools.operations.map((operation) => operation.name).sort());
      let checked = 0;
      for (const operation of tools.operations) {
        for (const example of operation.examples) {
          const result = await client.callTool(operation.name, example);
          const text = (result.content as Array<{ text: string }>)[0]!.text;
          expect({ tool: operation.name, example, text }).toEqual({ tool: operation.name, example, text: expect.stringMatching(/^The API answered 503/) });
          checked += 1;
        }
      }
      // The examples were really sent, one request each.
      expect(checked).toBe(exampleCount);
      expect(sent).toHaveLength(exampleCount);
    } finally {
      client.close();
    }
  });

  it('gives the same tools synchronously, from the document’s text', async () => {
    const text = readFileSync(join(FIXTURES, file), 'utf8');
    const sync = fromOpenApiSync(text, { baseUrl: 'http://api.test' });
    expect(sync.operations).toEqual((await fromOpenApi(join(FIXTURES, file), { baseUrl: 'http://api.test' })).operations);
  });
});

it('carries each operation’s tags, so a transform drops the tools of a tag', async () => {
  const tools = await fromOpenApi(join(FIXTURES, 'petstore-3.0.yaml'), { baseUrl: 'http://api.test' });
  const kept = tools.operations.filter((operation) => !operation.tags.includes('store')).map((operation) => operation.name);
  expect(kept.length).toBeLessThan(tools.length);
  const client = await TestClient.connect(createApp({ name: 'fixture', version: '1.0.0', providers: tools, transforms: [{ drop: { tags: ['store'] } }] }));
  try {
    expect((await client.listTools()).map((tool) => tool.name).sort()).toEqual(kept.sort());
  } finally {
    client.close();
  }
});
