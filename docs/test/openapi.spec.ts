import { createServer, type Server } from 'node:http';
import { TestClient } from '@mcpkit/testing';
import { createTasksApp } from '../examples/openapi.example';

// docs/openapi.md: the Tasks example against a small REST service on loopback.
describe('the openapi example', () => {
  let server: Server;
  const seen: Array<{ url?: string; authorization?: string; agent?: string }> = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push({ url: request.url, authorization: request.headers.authorization, agent: request.headers['user-agent'] });
      if (request.url === '/v1/tasks/t1') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 't1', title: 'Write the docs', done: false }));
      } else {
        response.writeHead(404, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ title: 'No such task', status: 404 }));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('offers getTask only, answers from the API, and turns a 404 into an error result', async () => {
    process.env.TASKS_TOKEN = 'docs-token';
    const { port } = server.address() as { port: number };
    const client = await TestClient.connect(createTasksApp(`http://127.0.0.1:${port}/v1`));
    try {
      const tools = await client.listTools();
      expect(tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint])).toEqual([['getTask', true]]);
      const task = await client.callTool('getTask', { id: 't1' });
      expect(task.structuredContent).toEqual({ id: 't1', title: 'Write the docs', done: false });
      expect(seen.at(-1)).toEqual({ url: '/v1/tasks/t1', authorization: 'Bearer docs-token', agent: 'tasks-mcp/1.0' });
      const missing = await client.callTool('getTask', { id: 'nope' });
      expect(missing).toEqual({
        isError: true,
        content: [
          { type: 'text', text: 'The API answered 404 Not Found to GET /tasks/{id}.' },
          { type: 'text', text: 'Problem details: {"title":"No such task","status":404}' },
        ],
      });
    } finally {
      client.close();
      delete process.env.TASKS_TOKEN;
    }
  });
});
