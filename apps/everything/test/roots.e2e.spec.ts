import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { HttpServerProcess } from '@mcpkit/testing';

// Roots that change mid-session (issue #29): the official SDK client announces new roots with
// notifications/roots/list_changed; the server's hook runs once (it logs `roots changed` with the
// roots it read, at info), the next call sees the new roots, and the roots are asked once per
// change, not once per call.

const MAIN = join(__dirname, '..', 'dist', 'main.js');

/** Where a target's server output goes, and how it is reached. */
interface Target {
  name: string;
  output(): string;
  transport(): Transport;
}

let http: HttpServerProcess | undefined;
let stdioOutput = '';

const stdio: Target = {
  name: 'stdio',
  output: () => stdioOutput,
  transport: () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'stdio'],
      env: { ...process.env, LOG_LEVEL: 'info' } as Record<string, string>,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stdioOutput += chunk.toString()));
    return transport;
  },
};
const streamable: Target = {
  name: 'Streamable HTTP',
  output: () => http!.output,
  transport: () => new StreamableHTTPClientTransport(new URL(http!.url)),
};

/** The server's log lines with this message. */
function lines(output: string, msg: string): Array<Record<string, unknown>> {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === msg);
}

/** Resolves once `ready()` holds, checking on each turn of the event loop (the jest timeout bounds it). */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setTimeout(resolve, 10));
}

beforeAll(async () => {
  http = await HttpServerProcess.start(process.execPath, [MAIN], { LOG_LEVEL: 'info' });
});

afterAll(async () => {
  await http?.stop();
});

describe.each([stdio, streamable])('roots that change, over $name, with the official SDK client', (target) => {
  let client: Client;
  let roots = [{ uri: 'file:///projects/one', name: 'one' }];
  let asked = 0;

  beforeAll(async () => {
    client = new Client({ name: 'roots-e2e', version: '1' }, { capabilities: { roots: { listChanged: true } } });
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      asked += 1;
      return { roots };
    });
    await client.connect(target.transport());
  });

  afterAll(async () => {
    await client.close();
  });

  const listRoots = async () => {
    const result = await client.callTool({ name: 'list_roots', arguments: {} });
    return (result.content as Array<{ text: string }>)[0].text;
  };

  it('asks for the roots once, however many calls read them', async () => {
    expect(await listRoots()).toBe('one file:///projects/one');
    expect(await listRoots()).toBe('one file:///projects/one');
    expect(await listRoots()).toBe('one file:///projects/one');
    expect(asked).toBe(1);
  });

  it('runs the hook once on a change, and the next call sees the new roots, asked once more', async () => {
    roots = [
      { uri: 'file:///projects/two', name: 'two' },
      { uri: 'file:///projects/three', name: 'three' },
    ];
    await client.sendRootsListChanged();
    // The hook reads the new roots itself (on the session's own stream): the call after it shares them.
    await until(() => lines(target.output(), 'roots changed').length > 0);
    expect(await listRoots()).toBe('two file:///projects/two\nthree file:///projects/three');
    expect(await listRoots()).toBe('two file:///projects/two\nthree file:///projects/three');
    expect(asked).toBe(2);
    await until(() => lines(target.output(), 'roots changed').length > 0);
    // Its own session's line (HTTP: one server serves the other suites' sessions too).
    const changes = lines(target.output(), 'roots changed');
    expect(changes).toHaveLength(1);
    expect(changes[0].roots).toEqual(roots);
    if (target === streamable) expect(changes[0].session).toBe((client.transport as StreamableHTTPClientTransport).sessionId);
  });
});
