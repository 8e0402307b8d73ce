import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';

const NOTE = {
  type: 'object',
  properties: { id: { type: 'string' }, text: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['id', 'text'],
} as const;

const PROBLEM = {
  type: 'object',
  properties: { type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' }, detail: { type: 'string' } },
} as const;

/** A small notes REST service whose OpenAPI 3.1 document @fastify/swagger writes from its route schemas. */
export interface RestService {
  readonly fastify: FastifyInstance;
  readonly baseUrl: string;
  /** The document, as @fastify/swagger generates it. */
  readonly document: Record<string, unknown>;
  /** What reached the service: method, raw URL, Authorization header. */
  readonly seen: Array<{ method: string; url: string; authorization?: string; apiVersion?: string }>;
  close(): Promise<void>;
}

function problem(status: number, title: string, detail: string) {
  return { type: `https://notes.test/problems/${status}`, title, status, detail };
}

export async function startRestService(): Promise<RestService> {
  const fastify = Fastify({ logger: false });
  const seen: RestService['seen'] = [];
  const notes = new Map<string, { id: string; text: string; tags: string[] }>([['n1', { id: 'n1', text: 'first', tags: ['a'] }]]);
  await fastify.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 'Notes', version: '1.0.0' } } });
  fastify.addHook('onRequest', async (request) => {
    seen.push({
      method: request.method,
      url: request.raw.url ?? '',
      authorization: request.headers.authorization,
      apiVersion: request.headers['x-api-version'] as string | undefined,
    });
  });
  fastify.addContentTypeParser('application/problem+json', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  fastify.get(
    '/notes',
    {
      schema: {
        operationId: 'listNotes',
        summary: 'Lists notes',
        tags: ['notes'],
        querystring: { type: 'object', properties: { tag: { type: 'array', items: { type: 'string' } }, limit: { type: 'integer', minimum: 1 } } },
        response: { 200: { type: 'array', items: NOTE } },
      },
    },
    async (request) => {
      const { tag, limit } = request.query as { tag?: string[]; limit?: number };
      return [...notes.values()].filter((note) => !tag || tag.every((one) => note.tags.includes(one))).slice(0, limit ?? 100);
    },
  );
  fastify.get(
    '/notes/:id',
    {
      schema: {
        operationId: 'getNote',
        summary: 'Reads a note',
        description: 'The note with this id.',
        tags: ['notes'],
        params: { type: 'object', properties: { id: { type: 'string', description: 'The note id' } }, required: ['id'] },
        response: { 200: NOTE, 404: PROBLEM },
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const note = notes.get(id);
      if (note) return note;
      return reply
        .code(404)
        .type('application/problem+json')
        .send(JSON.stringify(problem(404, 'Note not found', `No note has the id ${id}.`)));
    },
  );
  fastify.post(
    '/notes',
    {
      schema: {
        operationId: 'createNote',
        summary: 'Creates a note',
        tags: ['notes', 'write'],
        body: {
          type: 'object',
          properties: { text: { type: 'string', minLength: 1 }, tags: { type: 'array', items: { type: 'string' } } },
          required: ['text'],
        },
        response: { 201: NOTE, 401: PROBLEM },
      },
    },
    async (request, reply) => {
      if (request.headers.authorization !== 'Bearer secret-token') {
        return reply
          .code(401)
          .type('application/problem+json')
          .send(JSON.stringify(problem(401, 'Unauthorized', 'A bearer token is required.')));
      }
      const { text, tags = [] } = request.body as { text: string; tags?: string[] };
      const note = { id: `n${notes.size + 1}`, text, tags };
      notes.set(note.id, note);
      return reply.code(201).send(note);
    },
  );
  fastify.delete(
    '/notes/:id',
    { schema: { operationId: 'deleteNote', tags: ['notes', 'write'], params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } } },
    async (request, reply) => {
      notes.delete((request.params as { id: string }).id);
      return reply.code(204).send();
    },
  );
  fastify.get(
    '/export',
    { schema: { operationId: 'exportAll', summary: 'Every note, as one large document', response: { 200: { type: 'object', additionalProperties: true } } } },
    async (_request, reply) => reply.type('application/json').send(JSON.stringify({ padding: 'x'.repeat(64 * 1024) })),
  );
  fastify.get('/health', { schema: { hide: true } }, async () => ({ ok: true }));

  await fastify.listen({ port: 0, host: '127.0.0.1' });
  const address = fastify.server.address() as { port: number };
  const document = fastify.swagger() as unknown as Record<string, unknown>;
  return {
    fastify,
    baseUrl: `http://127.0.0.1:${address.port}`,
    document,
    seen,
    close: () => fastify.close(),
  };
}
