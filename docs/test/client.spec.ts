import { join } from 'node:path';
import { HttpServerProcess } from '@mcpkit/testing';
import { callOnce, protectedEndpoint } from '../examples/client.example';

// docs/client.md: the example against the built apps/everything, over stdio and HTTP.
const EVERYTHING = join(__dirname, '..', '..', 'apps', 'everything', 'dist', 'main.js');
const ENV = { ...process.env, LOG_LEVEL: 'warn' };

describe('the client example', () => {
  it('calls a tool over stdio with progress, and answers an elicitation', async () => {
    const progress: number[] = [];
    const stdio = { command: process.execPath, args: [EVERYTHING, 'stdio'], env: ENV, stderr: 'pipe' as const };
    expect(await callOnce(stdio, 'test_tool_with_progress', {}, progress)).toMatch(/^\d+$/);
    expect(progress).toEqual([0, 50, 100]);
    expect(await callOnce(stdio, 'test_elicitation', { message: 'Publish?' })).toBe('User response: action=accept, content={"response":"yes"}');
    expect(await callOnce(stdio, 'no_such_tool', {})).toBe('failed (-32602): Unknown tool: no_such_tool');
  });

  it('calls a tool over HTTP with a token provider', async () => {
    const server = await HttpServerProcess.start(process.execPath, [EVERYTHING, 'http'], ENV);
    try {
      const asked: string[] = [];
      const tokens = { current: () => (asked.push('current'), 'token-1'), refresh: async () => (asked.push('refresh'), 'token-2') };
      expect(await callOnce(protectedEndpoint(server.url, tokens), 'list_roots', {})).toBe('site file:///projects/site');
      expect(asked.length).toBeGreaterThan(0);
      expect(asked).not.toContain('refresh');
    } finally {
      await server.stop();
    }
  });
});
