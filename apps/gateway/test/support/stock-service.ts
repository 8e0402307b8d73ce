import swagger from '@fastify/swagger';
import Fastify from 'fastify';

/** A small stock REST service whose OpenAPI 3.1 document @fastify/swagger writes from its route schemas, served at `/openapi.json`. */
export interface StockService {
  readonly baseUrl: string;
  /** How many requests each operation received. */
  readonly calls: Record<string, number>;
  /** The `Authorization` headers the service received (a gateway must not pass its caller's on). */
  readonly authorizations: string[];
  close(): Promise<void>;
}

const ITEM = {
  type: 'object',
  properties: { sku: { type: 'string' }, name: { type: 'string' }, quantity: { type: 'integer' } },
  required: ['sku', 'name', 'quantity'],
} as const;

const PROBLEM = { type: 'object', properties: { title: { type: 'string' }, status: { type: 'integer' } } } as const;

/** Starts the service on a loopback port of its own. */
export async function startStockService(): Promise<StockService> {
  const fastify = Fastify({ logger: false });
  const calls: Record<string, number> = {};
  const authorizations: string[] = [];
  const stock = new Map([['SKU-1', { sku: 'SKU-1', name: 'Notebook', quantity: 12 }]]);
  await fastify.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 'Stock', version: '1.0.0' } } });
  fastify.addHook('onRequest', async (request) => {
    const operation = (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
    if (operation !== undefined) calls[operation] = (calls[operation] ?? 0) + 1;
    if (request.headers.authorization !== undefined) authorizations.push(request.headers.authorization);
  });
  fastify.get(
    '/stock/:sku',
    {
      schema: {
        operationId: 'getStock',
        summary: 'Reads the stock of an item',
        params: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
        response: { 200: ITEM, 404: PROBLEM },
      },
    },
    async (request, reply) => {
      const item = stock.get((request.params as { sku: string }).sku);
      return (
        item ??
        reply
          .code(404)
          .type('application/problem+json')
          .send(JSON.stringify({ title: 'No such item', status: 404 }))
      );
    },
  );
  fastify.post(
    '/stock/:sku/receive',
    {
      schema: {
        operationId: 'receiveStock',
        summary: 'Adds received items to the stock',
        params: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
        body: { type: 'object', properties: { quantity: { type: 'integer', minimum: 1 } }, required: ['quantity'] },
        response: { 200: ITEM },
      },
    },
    async (request) => {
      const { sku } = request.params as { sku: string };
      const item = stock.get(sku) ?? { sku, name: sku, quantity: 0 };
      item.quantity += (request.body as { quantity: number }).quantity;
      stock.set(sku, item);
      return item;
    },
  );
  fastify.delete(
    '/stock/:sku',
    {
      schema: {
        operationId: 'deleteStock',
        summary: 'Removes an item from the stock',
        params: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
        response: { 204: { type: 'null' } },
      },
    },
    async (request, reply) => {
      stock.delete((request.params as { sku: string }).sku);
      return reply.code(204).send();
    },
  );
  fastify.get('/openapi.json', { schema: { hide: true } }, async () => fastify.swagger());
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  const { port } = fastify.server.address() as { port: number };
  return { baseUrl: `http://127.0.0.1:${port}`, calls, authorizations, close: () => fastify.close() };
}
