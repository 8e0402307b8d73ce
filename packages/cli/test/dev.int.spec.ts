import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpServerProcess, RawStdioClient } from '@mcpkit/testing';

const CLI = join(__dirname, '..', 'dist', 'cli.js');
const CORE = join(__dirname, '..', '..', 'core', 'dist');

/** A plain-JS app (no compiler step): `tools` become tools that answer their own name. */
function writeApp(file: string, tools: string[], dynamic = false): void {
  writeFileSync(
    file,
    `const { createApp, Tool } = require(${JSON.stringify(CORE)});
class Tools {}
for (const name of ${JSON.stringify(tools)}) {
  Tools.prototype[name] = async function () { if (name === 'slow') await new Promise((r) => setTimeout(r, 10000)); return name; };
  Tool({ name, input: null })(Tools.prototype, name, Object.getOwnPropertyDescriptor(Tools.prototype, name));
}
exports.app = createApp({ name: 'dev-fixture', version: '1', providers: [Tools], dynamic: ${dynamic} });
`,
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('mcpkit dev', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcpkit-dev-'));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('over stdio: fails in-flight work with a retryable error, replays the handshake, announces the change', async () => {
    const app = join(dir, 'app.js');
    writeApp(app, ['alpha', 'slow']);
    const client = RawStdioClient.spawn(process.execPath, [CLI, 'dev', app], { ...process.env, LOG_LEVEL: 'warn' }, dir);
    try {
      await client.initialize();
      client.send({ jsonrpc: '2.0', id: 'inflight', method: 'tools/call', params: { name: 'slow', arguments: {} } });
      await new Promise((resolve) => setTimeout(resolve, 200));
      writeApp(app, ['alpha', 'slow', 'beta']);
      expect(await client.waitFor((message) => message.id === 'inflight', 20_000)).toMatchObject({ error: { code: -32603, data: { retryable: true } } });
      await client.waitFor((message) => message.method === 'notifications/tools/list_changed', 20_000);
      const list = await client.request('tools/list');
      expect((list.result as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)).toEqual(['alpha', 'slow', 'beta']);
      // The replayed initialize answer stays between dev and its server.
      expect(client.messages.filter((message) => (message.result as { protocolVersion?: string } | undefined)?.protocolVersion)).toHaveLength(1);
      expect(client.stray).toEqual([]);
    } finally {
      client.kill();
    }
  }, 60_000);

  it('over stdio on 2026-07-28: keeps an open subscriptions/listen across the restart and reports the change on it', async () => {
    const app = join(dir, 'app.js');
    writeApp(app, ['alpha', 'slow'], true);
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const client = RawStdioClient.spawn(process.execPath, [CLI, 'dev', app], { ...process.env, LOG_LEVEL: 'warn' }, dir);
    const tagged = (id: string) => (message: Record<string, unknown>) => (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta?.['io.modelcontextprotocol/subscriptionId'] === id;
    try {
      client.send({ jsonrpc: '2.0', id: 'listen', method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: meta } });
      expect(await client.waitFor((message) => message.method === 'notifications/subscriptions/acknowledged', 20_000)).toMatchObject({ params: { notifications: { toolsListChanged: true } } });
      client.send({ jsonrpc: '2.0', id: 'inflight', method: 'tools/call', params: { name: 'slow', arguments: {}, _meta: meta } });
      await new Promise((resolve) => setTimeout(resolve, 200));
      writeApp(app, ['alpha', 'slow', 'beta'], true);
      expect(await client.waitFor((message) => message.id === 'inflight', 20_000)).toMatchObject({ error: { code: -32603, data: { retryable: true } } });
      expect(await client.waitFor((message) => message.method === 'notifications/tools/list_changed' && tagged('listen')(message), 20_000)).toBeDefined();
      const list = await client.request('tools/list', { _meta: meta });
      expect((list.result as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)).toEqual(['alpha', 'slow', 'beta']);
      // The subscription lives on: acknowledged once, never failed, still delivering.
      expect(client.messages.filter((message) => message.method === 'notifications/subscriptions/acknowledged')).toHaveLength(1);
      expect(client.messages.filter((message) => message.id === 'listen')).toEqual([]);
      client.send({ jsonrpc: '2.0', id: 'toggle', method: 'tools/call', params: { name: 'alpha', arguments: {}, _meta: meta } });
      await client.waitFor((message) => message.id === 'toggle', 20_000);
      expect(client.stray).toEqual([]);
    } finally {
      client.kill();
    }
  }, 60_000);

  it('over HTTP: restarts behind the same port', async () => {
    const app = join(dir, 'app.js');
    writeApp(app, ['alpha']);
    const port = await freePort();
    const server = await HttpServerProcess.start(process.execPath, [CLI, 'dev', app, '--http', '--port', String(port)], { LOG_LEVEL: 'warn' });
    const list = async () => {
      const init = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } }),
      });
      const session = init.headers.get('mcp-session-id')!;
      const tools = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
      return ((await tools.json()) as { result: { tools: Array<{ name: string }> } }).result.tools.map((tool) => tool.name);
    };
    try {
      expect(server.url).toBe(`http://127.0.0.1:${port}/mcp`);
      expect(await list()).toEqual(['alpha']);
      writeApp(app, ['alpha', 'beta']);
      const deadline = Date.now() + 20_000;
      let names: string[] = [];
      while (Date.now() < deadline) {
        names = await list().catch(() => []);
        if (names.includes('beta')) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(names).toEqual(['alpha', 'beta']);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
