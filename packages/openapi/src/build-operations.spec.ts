import { buildOperations } from './build-operations';

const document = {
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: {
    '/items/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        operationId: 'get item!',
        summary: 'Reads an item',
        parameters: [
          { name: 'id', in: 'query', schema: { type: 'integer' } },
          { name: 'Accept', in: 'header', schema: { type: 'string' } },
          { name: 'session', in: 'cookie', schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { type: 'string', nullable: true } } } } } },
      },
      put: {
        parameters: [{ name: 'body', in: 'query', schema: { type: 'string' }, example: 'q' }],
        requestBody: {
          required: true,
          content: {
            'application/xml': { schema: { type: 'object' } },
            'application/json': {
              schema: { type: 'object', properties: { n: { type: 'integer' } } },
              examples: { one: { value: { n: 1 } }, two: { value: { n: 2 } } },
            },
          },
        },
        responses: { '204': { description: 'done' } },
      },
      delete: { operationId: 'get item?', responses: { '204': { description: 'gone' } } },
    },
    '/upload': {
      post: {
        operationId: 'upload',
        requestBody: { content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
        responses: {},
      },
    },
  },
  webhooks: { ignored: { post: { operationId: 'hook', responses: {} } } },
};

describe('buildOperations', () => {
  const operations = buildOperations(document);
  const byName = new Map(operations.map((operation) => [operation.name, operation]));

  it('names each operation once, from its operationId or its method and path', () => {
    expect(operations.map((operation) => operation.name)).toEqual(['get_item', 'put_items_id', 'get_item_2', 'upload']);
    expect(buildOperations(document, { namePrefix: 'shop.' }).map((operation) => operation.name)[0]).toBe('shop.get_item');
  });

  it('gives parameters that share a name across locations their location, and drops headers OpenAPI ignores', () => {
    const get = byName.get('get_item')!;
    expect(Object.keys(get.inputSchema.properties as object)).toEqual(['path_id', 'query_id', 'session']);
    expect(get.inputSchema.required).toEqual(['path_id']);
    expect(get.request.parameters.map((parameter) => [parameter.argument, parameter.in, parameter.style, parameter.explode])).toEqual([
      ['path_id', 'path', 'simple', false],
      ['query_id', 'query', 'form', true],
      ['session', 'cookie', 'form', true],
    ]);
    expect(get.annotations).toEqual({ openWorldHint: true, readOnlyHint: true });
    expect(get.title).toBe('Reads an item');
  });

  it('wraps an output that is not an object', () => {
    const get = byName.get('get_item')!;
    expect(get.outputSchema).toEqual({
      type: 'object',
      properties: { result: { type: 'array', items: { type: ['string', 'null'] } } },
      required: ['result'],
    });
    expect(get.request).toMatchObject({ structured: true, wrapOutput: true });
  });

  it('sends JSON before other media types, and moves the body aside from a parameter named body', () => {
    const put = byName.get('put_items_id')!;
    expect(put.request.body).toEqual({ argument: 'requestBody', mediaType: 'application/json', encoding: 'json', required: true });
    expect(put.inputSchema.required).toEqual(['id', 'requestBody']);
    expect(put.outputSchema).toBeUndefined();
    expect(put.annotations).toMatchObject({ idempotentHint: true });
    // The document's own examples, as whole arguments (the path id has none: no example at all).
    expect(put.examples).toEqual([]);
  });

  it('takes bytes as base64', () => {
    expect(byName.get('upload')!.inputSchema.properties).toEqual({
      body: { type: 'string', contentEncoding: 'base64', description: 'The bytes to send, base64-encoded' },
    });
    expect(byName.get('upload')!.request.body).toMatchObject({ encoding: 'binary', mediaType: 'application/octet-stream', required: false });
  });

  it('assembles examples from each argument’s own', () => {
    const [put] = buildOperations({
      openapi: '3.1.0',
      paths: { '/x': { put: document.paths['/items/{id}'].put } },
    });
    expect(put!.examples).toEqual([
      { body: 'q', requestBody: { n: 1 } },
      { body: 'q', requestBody: { n: 2 } },
    ]);
  });

  it('keeps what include and exclude pick', () => {
    expect(buildOperations(document, { include: ['* /items/*'], exclude: ['get item?'] }).map((operation) => operation.name)).toEqual([
      'get_item',
      'put_items_id',
    ]);
  });
});
