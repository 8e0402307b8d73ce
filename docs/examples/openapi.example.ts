import { createApp } from '@mcpkit/core';
import { fromOpenApiSync } from '@mcpkit/openapi';

// The REST service's document as its team publishes it; a file path, a URL or an object work too.
export const tasksDocument = `
openapi: 3.1.0
info: { title: Tasks, version: 1.0.0 }
paths:
  /tasks/{id}:
    get:
      operationId: getTask
      summary: Reads a task
      tags: [tasks]
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        '200':
          description: The task
          content:
            application/json:
              schema:
                type: object
                properties: { id: { type: string }, title: { type: string }, done: { type: boolean } }
                required: [id, title, done]
        '404': { description: No such task }
    delete:
      operationId: deleteTask
      tags: [tasks]
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        '204': { description: Deleted }
`;

/** An MCP server offering the Tasks API's operations as tools: getTask here, deleteTask left out. */
export function createTasksApp(baseUrl = process.env.TASKS_URL ?? 'http://127.0.0.1:8080/v1') {
  // Synchronous for a document given as text or an object (local $refs only); fromOpenApi reads files and URLs.
  const tools = fromOpenApiSync(tasksDocument, {
    baseUrl,
    exclude: ['deleteTask'],
    headers: { 'user-agent': 'tasks-mcp/1.0' },
    // Asked at each call: a token from the environment here, the caller's own from ctx.auth in a gateway.
    auth: { bearer: () => process.env.TASKS_TOKEN },
    timeoutMs: 10_000,
    maxResponseBytes: 1_000_000,
  });
  return createApp({ name: 'tasks', version: '1.0.0', providers: tools });
}
