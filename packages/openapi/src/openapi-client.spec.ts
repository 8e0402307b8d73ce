import type { RequestContext } from '@mcpkit/core';
import type { OperationRequest } from './operation';
import { MAX_REDIRECTS } from './follow-redirects';
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

  it('bounds a credential that never comes by the same timeout, and sends nothing', async () => {
    let sent = 0;
    const api = client(
      async () => {
        sent += 1;
        return json({});
      },
      { timeoutMs: 20, auth: { bearer: () => new Promise<string>(() => undefined) } },
    );
    expect(await api.call(GET_PET, { petId: 1 }, context())).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'The credentials for GET /pet/{petId} were not ready within 20 ms (timeoutMs).' }],
    });
    expect(sent).toBe(0);
  });

  it('runs at most maxConcurrentCalls calls at once, the others waiting their turn or leaving when cancelled', async () => {
    let running = 0;
    let most = 0;
    const pending: Array<() => void> = [];
    const api = client(
      () =>
        new Promise((resolve) => {
          running += 1;
          most = Math.max(most, running);
          pending.push(() => {
            running -= 1;
            resolve(json({}));
          });
        }),
      { maxConcurrentCalls: 3 },
    );
    const cancelled = new AbortController();
    const calls = Array.from({ length: 10 }, (_, index) => api.call(GET_PET, { petId: index }, context(index === 9 ? cancelled.signal : undefined)));
    const leaving = expect(calls[9]).rejects.toThrow('gone');
    cancelled.abort(new Error('gone'));
    await leaving;
    // Each answer lets one waiting call start: 9 calls, never more than 3 at once.
    for (let answered = 0; answered < 9; answered += 1) {
      await new Promise((resolve) => setImmediate(resolve));
      pending.shift()!();
    }
    expect((await Promise.all(calls.slice(0, 9))).every((result) => !result.isError)).toBe(true);
    expect([most, running, pending.length]).toEqual([3, 0, 0]);
  });

  it('ends a call that waited for a slot past timeoutMs as an error result, naming the bound', async () => {
    // The first call's API never answers nor hears the abort: it keeps the one slot.
    const api = client(() => new Promise<Response>(() => undefined), { maxConcurrentCalls: 1, timeoutMs: 20 });
    void api.call(GET_PET, { petId: 1 }, context());
    expect(await api.call(GET_PET, { petId: 2 }, context())).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'The API did not answer GET /pet/{petId} within 20 ms (timeoutMs): 1 calls to it were running all that time (maxConcurrentCalls).',
        },
      ],
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

  it('answers JSON nested too deeply to be sent on as an error result, not as an unreachable API', async () => {
    const depth = 200_000;
    const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const result = await client(async () => new Response(deep, { headers: { 'content-type': 'application/json' } })).call(
      { ...GET_PET, wrapOutput: true },
      { petId: 1 },
      context(),
    );
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'The API answered 200 to GET /pet/{petId} with JSON nested too deeply to be sent on.' }],
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

  it('keeps a header the app sends with every call over a header argument of the same name', async () => {
    const seen: Headers[] = [];
    const tenant: OperationRequest = {
      method: 'GET',
      path: '/x',
      parameters: [
        { name: 'X-Tenant', in: 'header', argument: 'tenant', required: false, style: 'simple', explode: false, allowReserved: false },
        { name: 'X-Note', in: 'header', argument: 'note', required: false, style: 'simple', explode: false, allowReserved: false },
      ],
    };
    const api = client(
      async (_url, init) => {
        seen.push(init.headers as Headers);
        return json({});
      },
      { headers: { 'x-tenant': 'acme' } },
    );
    await api.call(tenant, { tenant: 'other', note: 'hi' }, context());
    expect([seen[0]!.get('x-tenant'), seen[0]!.get('x-note')]).toEqual(['acme', 'hi']);
  });

  it('sends a query API key once, the app’s, whatever the arguments name', async () => {
    const urls: string[] = [];
    const search: OperationRequest = {
      method: 'GET',
      path: '/x',
      parameters: [{ name: 'filter', in: 'query', argument: 'filter', required: false, style: 'form', explode: true, allowReserved: false }],
    };
    const api = client(
      async (url) => {
        urls.push(String(url));
        return json({});
      },
      { auth: { apiKey: 'app-key', name: 'api_key', in: 'query' } },
    );
    await api.call(search, { filter: { api_key: 'callers-key', tag: 'a' } }, context());
    expect(urls).toEqual(['https://api.test/v3/x?api_key=app-key&tag=a']);
  });

  it('sends a cookie API key once, the app’s, beside the cookie arguments', async () => {
    const seen: Headers[] = [];
    const cookies: OperationRequest = {
      method: 'GET',
      path: '/x',
      parameters: ['key', 'theme'].map((name) => ({
        name,
        in: 'cookie' as const,
        argument: name,
        required: false,
        style: 'form',
        explode: true,
        allowReserved: false,
      })),
    };
    const api = client(
      async (_url, init) => {
        seen.push(init.headers as Headers);
        return json({});
      },
      { auth: { apiKey: 'app key', name: 'key', in: 'cookie' } },
    );
    await api.call(cookies, { key: 'callers-key', theme: 'dark' }, context());
    expect(seen[0]!.get('cookie')).toBe('theme=dark; key=app%20key');
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

  it('never lets a path value or the document’s path leave the base path or the origin', async () => {
    const urls: string[] = [];
    const fetch: Fetch = async (url) => {
      urls.push(String(url));
      return json({});
    };
    const api = client(fetch);
    // A base URL without a path: a document path not starting with / would name another host.
    const bare = client(fetch, { baseUrl: 'https://api.test' });
    const label: OperationRequest = { ...GET_PET, parameters: [{ ...GET_PET.parameters[0]!, style: 'label' }] };
    const results = [
      await api.call(GET_PET, { petId: '..' }, context()),
      await api.call(GET_PET, { petId: '.' }, context()),
      await api.call(label, { petId: '.' }, context()),
      await api.call({ ...GET_PET, path: '/../admin' }, { petId: 1 }, context()),
      await bare.call({ ...GET_PET, path: '@evil.test/pet' }, { petId: 1 }, context()),
      await bare.call({ ...GET_PET, path: '.evil.test/pet' }, { petId: 1 }, context()),
    ];
    expect(results.map((result) => [result.isError, (result.content as Array<{ text: string }>)[0]!.text.split(': ')[1]])).toEqual([
      [true, 'the path /pet/.. has a "." or ".." segment.'],
      [true, 'the path /pet/. has a "." or ".." segment.'],
      [true, 'the path /pet/.. has a "." or ".." segment.'],
      [true, 'the path /../admin has a "." or ".." segment.'],
      [true, "the path @evil.test/pet leaves the API's origin https://api.test."],
      [true, "the path .evil.test/pet leaves the API's origin https://api.test."],
    ]);
    expect(urls).toEqual([]);
    await api.call(GET_PET, { petId: '..x' }, context());
    expect(urls).toEqual(['https://api.test/v3/pet/..x']);
  });

  it('follows redirects within the API’s origin only, so its credentials never reach another host', async () => {
    const seen: Array<[string, string, string | null]> = [];
    const hops: Record<string, Response | (() => Response)> = {
      'https://api.test/v3/pet/1': () => new Response(null, { status: 301, headers: { location: '/v3/pets/1' } }),
      'https://api.test/v3/pets/1': () => json({ id: 1 }),
      'https://api.test/v3/pet/2': () => new Response(null, { status: 302, headers: { location: 'https://evil.test/steal' } }),
      'https://api.test/v3/pet/3': () => new Response(null, { status: 307, headers: { location: 'http://api.test/v3/pet/1' } }),
      'https://api.test/v3/pet/4': () => new Response(null, { status: 308, headers: { location: '/v3/pet/4' } }),
    };
    const api = client(
      async (url, init) => {
        seen.push([String(url), init.redirect!, (init.headers as Headers).get('x-key')]);
        return (hops[String(url)] as () => Response)();
      },
      { auth: { apiKey: 'secret', name: 'X-Key' } },
    );
    expect(await api.call(GET_PET, { petId: 1 }, context())).toEqual({ structuredContent: { id: 1 }, content: [{ type: 'text', text: '{"id":1}' }] });
    const refused = await Promise.all([2, 3].map((petId) => api.call(GET_PET, { petId }, context())));
    expect(refused.map((result) => (result.content as Array<{ text: string }>)[0]!.text)).toEqual([
      "The API's answer to GET /pet/{petId} was not read: it redirected to another origin (https://evil.test), which is not followed: the call's credentials stay with the API.",
      "The API's answer to GET /pet/{petId} was not read: it redirected to another origin (http://api.test), which is not followed: the call's credentials stay with the API.",
    ]);
    expect(seen.filter(([url]) => !url.startsWith('https://api.test/'))).toEqual([]);
    expect(seen.every(([, redirect, key]) => redirect === 'manual' && key === 'secret')).toBe(true);
    seen.length = 0;
    expect((await api.call(GET_PET, { petId: 4 }, context())).isError).toBe(true);
    expect(seen).toHaveLength(MAX_REDIRECTS + 1);
  });

  it('continues a 303 as a GET without the body', async () => {
    const seen: Array<[string, string | undefined, unknown]> = [];
    const post: OperationRequest = {
      method: 'POST',
      path: '/orders',
      parameters: [],
      body: { argument: 'body', mediaType: 'application/json', encoding: 'json', required: true },
    };
    const api = client(async (url, init) => {
      seen.push([String(url), init.method, init.body]);
      return seen.length === 1 ? new Response(null, { status: 303, headers: { location: '/v3/orders/7' } }) : json({ id: 7 });
    });
    expect((await api.call(post, { body: { n: 1 } }, context())).isError).toBeFalsy();
    expect(seen).toEqual([
      ['https://api.test/v3/orders', 'POST', '{"n":1}'],
      ['https://api.test/v3/orders/7', 'GET', undefined],
    ]);
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(() => openApiClient({ baseUrl: 'file:///etc' })).toThrow('baseUrl must be an http(s) URL');
  });

  it('refuses a timeout or a bound that is not a positive whole number, as an unset variable gives', () => {
    for (const timeoutMs of [Number(undefined), -1, 2.5, 2 ** 32]) {
      expect(() => openApiClient({ baseUrl: 'https://api.test', timeoutMs })).toThrow(
        `openApiClient: timeoutMs must be a whole number from 1 to ${2 ** 32 - 1}`,
      );
    }
    for (const maxResponseBytes of [Number(undefined), 0, Infinity]) {
      expect(() => openApiClient({ baseUrl: 'https://api.test', maxResponseBytes })).toThrow('openApiClient: maxResponseBytes must be a whole number');
    }
  });
});
