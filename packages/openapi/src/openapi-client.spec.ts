import type { RequestContext } from '@mcpkit/core';
import type { OperationRequest } from './operation';
import { openApiClient, type OpenApiClientOptions } from './openapi-client';

const GET_PET: OperationRequest = {
  method: 'GET',
  path: '/pet/{petId}',
  parameters: [{ name: 'petId', in: 'path', argument: 'petId', required: true, style: 'simple', explode: false, allowReserved: false }],
  structured: true,
};

function context(signal = new AbortController().signal): RequestContext {
  return { signal } as unknown as RequestContext;
}

type Fetch = (url: URL, init: RequestInit) => Promise<Response>;

function client(fetch: Fetch, options: Partial<OpenApiClientOptions> = {}) {
  return openApiClient({ baseUrl: 'https://api.test/v3/', fetch: fetch as unknown as typeof globalThis.fetch, ...options });
}

const json = (body: unknown, status = 200, type = 'application/json') => new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });

/** A body of `chunks` chunks of `size` bytes without a Content-Length, counting the chunks pulled. */
function streamed(chunks: number, size: number): { response: Response; pulled: () => number } {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += 1;
      if (pulled > chunks) controller.close();
      else controller.enqueue(new Uint8Array(size).fill(0x20));
    },
  });
  return { response: new Response(body, { headers: { 'content-type': 'application/json' } }), pulled: () => pulled };
}

describe('openApiClient', () => {
  it('keeps the base URL’s path and sends what the operation says', async () => {
    const calls: Array<[string, RequestInit]> = [];
    const api = client(
      async (url, init) => {
        calls.push([String(url), init]);
        return json({ id: 1 });
      },
      { headers: { 'user-agent': 'mcpkit-test' }, auth: { apiKey: 'k e y', name: 'api_key', in: 'query' } },
    );
    expect(await api.call(GET_PET, { petId: 1 }, context())).toEqual({ structuredContent: { id: 1 }, content: [{ type: 'text', text: '{"id":1}' }] });
    expect(calls[0]![0]).toBe('https://api.test/v3/pet/1?api_key=k+e+y');
    expect(calls[0]![1].method).toBe('GET');
    expect((calls[0]![1].headers as Headers).get('user-agent')).toBe('mcpkit-test');
  });

  it('puts an API key in a header or a cookie, and lets a function sign the request', async () => {
    const seen: Headers[] = [];
    const fetch: Fetch = async (_url, init) => {
      seen.push(init.headers as Headers);
      return json({});
    };
    await client(fetch, { auth: { apiKey: () => 'abc', name: 'X-Key' } }).call(GET_PET, { petId: 1 }, context());
    await client(fetch, { auth: { apiKey: 'abc', name: 'key', in: 'cookie' } }).call(GET_PET, { petId: 1 }, context());
    await client(fetch, { auth: (request) => request.headers.set('x-signed', `${request.method} ${request.url.pathname}`) }).call(
      GET_PET,
      { petId: 1 },
      context(),
    );
    await client(fetch, { auth: { bearer: async () => undefined } }).call(GET_PET, { petId: 1 }, context());
    expect(seen.map((headers) => [headers.get('x-key'), headers.get('cookie'), headers.get('x-signed'), headers.get('authorization')])).toEqual([
      ['abc', null, null, null],
      [null, 'key=abc', null, null],
      [null, null, 'GET /v3/pet/1', null],
      [null, null, null, null],
    ]);
  });

  it('stops reading a body without Content-Length once it passes maxResponseBytes', async () => {
    const body = streamed(1000, 1024);
    const result = await client(async () => body.response, { maxResponseBytes: 4096 }).call(GET_PET, { petId: 1 }, context());
    expect(result.isError).toBe(true);
    expect(body.pulled()).toBeLessThanOrEqual(6);
  });

  it('answers a timeout as an error result', async () => {
    const api = client(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init.signal!.addEventListener('abort', () => reject(init.signal!.reason));
        }),
      { timeoutMs: 20 },
    );
    expect(await api.call(GET_PET, { petId: 1 }, context())).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'The API did not answer GET /pet/{petId} within 20 ms (timeoutMs).' }],
    });
  });

  it('passes a cancellation of the MCP request on as the abort it is', async () => {
    const controller = new AbortController();
    const api = client((_url, init) => {
      controller.abort(new Error('cancelled'));
      return Promise.reject(init.signal!.reason);
    });
    await expect(api.call(GET_PET, { petId: 1 }, context(controller.signal))).rejects.toThrow('cancelled');
  });

  it('answers a 2xx that is not the JSON it declares as an error result', async () => {
    const result = await client(async () => new Response('<html>', { headers: { 'content-type': 'text/html' } })).call(GET_PET, { petId: 1 }, context());
    expect(result).toEqual({
      isError: true,
      content: [
        { type: 'text', text: 'The API answered 200 to GET /pet/{petId} with text/html, not the JSON it declares.' },
        { type: 'text', text: '<html>' },
      ],
    });
  });

  it('answers an operation without an output schema by the media type of its answer', async () => {
    const plain: OperationRequest = { ...GET_PET, structured: false };
    const answer = (body: string | Uint8Array, type: string) =>
      client(async () => new Response(body, { headers: { 'content-type': type } })).call(plain, { petId: 1 }, context());
    expect(await answer('hello', 'text/plain')).toEqual({ content: [{ type: 'text', text: 'hello' }] });
    expect(await answer(new Uint8Array([1, 2]), 'image/png')).toEqual({ content: [{ type: 'image', data: 'AQI=', mimeType: 'image/png' }] });
    expect(await answer(new Uint8Array([1, 2]), 'application/pdf')).toMatchObject({
      content: [{ type: 'resource', resource: { mimeType: 'application/pdf', blob: 'AQI=' } }],
    });
  });

  it('shows the start of a long error body, not all of it', async () => {
    const result = await client(async () => new Response('e'.repeat(10_000), { status: 500, headers: { 'content-type': 'text/plain' } })).call(
      GET_PET,
      { petId: 1 },
      context(),
    );
    const [, body] = result.content as Array<{ text: string }>;
    expect(body!.text).toHaveLength('Body (text/plain): '.length + 4096 + '… (5904 more characters)'.length);
  });

  it('answers arguments that cannot be sent as an error result', async () => {
    const header: OperationRequest = {
      method: 'GET',
      path: '/x',
      parameters: [{ name: 'X-Note', in: 'header', argument: 'note', required: true, style: 'simple', explode: false, allowReserved: false }],
    };
    const result = await client(async () => json({})).call(header, { note: 'a\r\nInjected: 1' }, context());
    expect(result.isError).toBe(true);
    expect((result.content as Array<{ text: string }>)[0]!.text).toMatch(/^The request to GET \/x cannot be built: /);
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(() => openApiClient({ baseUrl: 'file:///etc' })).toThrow('baseUrl must be an http(s) URL');
  });
});
