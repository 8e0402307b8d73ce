import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

// Issue #14 end to end: the caller of a stdio server is named by its environment through
// serveStdio({ auth }); the official SDK client sees the same guards, scopes and hidden tools.
const SERVER = join(__dirname, 'fixtures', 'guarded-server.js');

async function connect(env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'guards-e2e', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [SERVER],
      env: { ...process.env, LOG_LEVEL: 'warn', ...env } as Record<string, string>,
      stderr: 'pipe',
    }),
  );
  return client;
}

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof McpError) return error;
    throw error;
  }
  throw new Error('expected a JSON-RPC error');
}

describe('guards over stdio with the official client', () => {
  it('gives a reader its list, a step-up denial naming the scope, and a hidden tool that answers like an unknown one', async () => {
    const client = await connect({ CALLER: 'reader', SCOPES: 'notes:read' });
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami', 'write', 'flaky']);
      expect(await client.callTool({ name: 'whoami', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'YOU ARE READER' }] });
      const denied = await rejection(client.callTool({ name: 'write', arguments: {} }));
      expect({ code: denied.code, data: denied.data }).toEqual({ code: -31001, data: { error: 'insufficient_scope', scopes: ['notes:write'] } });
      const hidden = await rejection(client.callTool({ name: 'purge', arguments: {} }));
      const unknown = await rejection(client.callTool({ name: 'purgf', arguments: {} }));
      expect(hidden.code).toBe(-32602);
      expect(hidden.message).toBe(unknown.message.replace('purgf', 'purge'));
    } finally {
      await client.close();
    }
  });

  it('lets an admin writer use everything', async () => {
    const client = await connect({ CALLER: 'boss', SCOPES: 'notes:read notes:write', ROLES: 'admin' });
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami', 'write', 'purge', 'flaky']);
      expect(await client.callTool({ name: 'write', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'written' }] });
      expect(await client.callTool({ name: 'purge', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'purged' }] });
      // An exception filter answers for the tool that threw.
      expect(await client.callTool({ name: 'flaky', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'try again soon' }] });
    } finally {
      await client.close();
    }
  });

  it('treats a process without a caller as anonymous: authentication required, roles hidden', async () => {
    const client = await connect({});
    try {
      expect(await client.callTool({ name: 'whoami', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'YOU ARE NOBODY' }] });
      expect((await rejection(client.callTool({ name: 'write', arguments: {} }))).data).toEqual({ error: 'authentication_required', scopes: ['notes:write'] });
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami', 'write', 'flaky']);
    } finally {
      await client.close();
    }
  });
});
