import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { HttpServerProcess, RawStdioClient } from '@mcpkit/testing';

const CLI = join(__dirname, '..', 'dist', 'cli.js');
// The package folder: its `main` (the bundled entry), what an app's require('@mcpkit/core') gets.
const CORE = join(__dirname, '..', '..', 'core');

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

/** A TypeScript project (tsc resolves from it) whose `src/app.ts` serves `tools`; `extra` is appended (a type error). */
function writeTsApp(dir: string, tools: string[], extra = ''): void {
  writeFileSync(
    join(dir, 'src', 'app.ts'),
    `declare function require(id: string): any;
declare const exports: any;
const { createApp, Tool } = require(${JSON.stringify(CORE)});
class Tools {}
for (const name of ${JSON.stringify(tools)}) {
  (Tools.prototype as any)[name] = async function () { return name; };
  Tool({ name, input: null })(Tools.prototype, name, Object.getOwnPropertyDescriptor(Tools.prototype, name));
}
exports.app = createApp({ name: 'dev-ts-fixture', version: '1', providers: [Tools] });
${extra}
`,
  );
}

function tsProject(dir: string, tools: string[]): string {
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(dirname(require.resolve('typescript/package.json')), join(dir, 'node_modules', 'typescript'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'dev-ts-fixture', private: true }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { outDir: 'dist', rootDir: 'src', module: 'commonjs', target: 'es2022', types: [] }, include: ['src'] }),
  );
  writeTsApp(dir, tools);
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', dir]);
  return join(dir, 'dist', 'app.js');
}

/** Polls `check` every 100 ms until it holds or `timeoutMs` passes; returns whether it held. */
async function eventually(check: () => boolean, timeoutMs = 20_000): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

const names = (message: Record<string, unknown>) => (message.result as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);

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

  it('passes --export on to the server it starts', async () => {
    // In a folder of its own: dev beside packages/cli would run tsc --watch on the CLI itself.
    const app = join(dir, 'app.js');
    writeFileSync(app, `module.exports = require(${JSON.stringify(join(__dirname, 'fixtures', 'two-apps.js'))});\n`);
    const client = RawStdioClient.spawn(process.execPath, [CLI, 'dev', app, '--export', 'clockApp'], { ...process.env, LOG_LEVEL: 'warn' }, dir);
    try {
      expect(await client.initialize()).toMatchObject({ result: { serverInfo: { name: 'clock' } } });
      expect(client.stray).toEqual([]);
    } finally {
      client.kill();
    }
  }, 60_000);

  it('passes --env and the arguments after -- on to the server it starts', async () => {
    const app = join(dir, 'app.js');
    writeFileSync(app, `module.exports = require(${JSON.stringify(join(__dirname, 'fixtures', 'input-app.js'))});\n`);
    const args = [CLI, 'dev', app, '--env', 'INPUT_APP_GREETING=from dev', '--', '/srv/a', '--http'];
    const client = RawStdioClient.spawn(process.execPath, args, { ...process.env, LOG_LEVEL: 'warn' }, dir);
    try {
      await client.initialize();
      const answer = await client.request('tools/call', { name: 'server_input', arguments: {} });
      const text = (answer.result as { content: Array<{ text: string }> }).content[0].text;
      expect(JSON.parse(text)).toEqual({ args: ['/srv/a', '--http'], greeting: 'from dev' });
    } finally {
      client.kill();
    }
  }, 60_000);

  it('over stdio on 2026-07-28: keeps an open subscriptions/listen across the restart and reports the change on it', async () => {
    const app = join(dir, 'app.js');
    writeApp(app, ['alpha', 'slow'], true);
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const client = RawStdioClient.spawn(process.execPath, [CLI, 'dev', app], { ...process.env, LOG_LEVEL: 'warn' }, dir);
    const tagged = (id: string) => (message: Record<string, unknown>) =>
      (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta?.['io.modelcontextprotocol/subscriptionId'] === id;
    try {
      client.send({ jsonrpc: '2.0', id: 'listen', method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: meta } });
      expect(await client.waitFor((message) => message.method === 'notifications/subscriptions/acknowledged', 20_000)).toMatchObject({
        params: { notifications: { toolsListChanged: true } },
      });
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

  it('over stdio with the official SDK client: listChanged is declared, and the client stays connected and hears the change', async () => {
    const app = join(dir, 'app.js');
    writeApp(app, ['alpha']);
    const client = new Client({ name: 'dev-sdk-client', version: '1' });
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'dev', app],
      cwd: dir,
      env: { ...process.env, LOG_LEVEL: 'warn' } as Record<string, string>,
      stderr: 'pipe',
    });
    await client.connect(transport);
    try {
      // A plain (not dynamic) app: dev declares listChanged because it will send list_changed.
      expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['alpha']);
      writeApp(app, ['alpha', 'beta']);
      expect(await eventually(() => changes > 0)).toBe(true);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['alpha', 'beta']);
      expect(await client.callTool({ name: 'beta', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'beta' }] });
      expect(changes).toBe(1);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('over stdio: a rebuild with type errors leaves the last good build serving, the fixed one takes over', async () => {
    const entry = tsProject(dir, ['alpha']);
    const client = RawStdioClient.spawn(process.execPath, [CLI, 'dev', entry], { ...process.env, LOG_LEVEL: 'warn' }, dir);
    try {
      // The server starts after tsc's first pass: the wait is the compiler's.
      client.send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
      expect(await client.waitFor((message) => message.id === 'init', 30_000)).toMatchObject({ result: { capabilities: { tools: { listChanged: true } } } });
      client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(names(await client.request('tools/list'))).toEqual(['alpha']);

      writeTsApp(dir, ['alpha', 'beta'], "const oops: number = 'not a number';");
      expect(await eventually(() => client.stderr.includes('still serving the last good build'), 30_000)).toBe(true);
      expect(client.stderr).toContain('TS2322');
      expect(names(await client.request('tools/list'))).toEqual(['alpha']);
      expect(client.messages.filter((message) => message.method === 'notifications/tools/list_changed')).toEqual([]);

      writeTsApp(dir, ['alpha', 'beta']);
      await client.waitFor((message) => message.method === 'notifications/tools/list_changed', 30_000);
      expect(names(await client.request('tools/list'))).toEqual(['alpha', 'beta']);
      expect(client.stray).toEqual([]);
      // The client closing stdin ends dev (and its compiler) cleanly, without news of a lost server.
      expect(await client.end()).toEqual({ code: 0, signal: null });
      expect(client.stderr).not.toContain('waiting for the next build');
    } finally {
      client.kill();
    }
  }, 90_000);

  it('over stdio: a build that throws on load leaves the last good build serving and shows the error', async () => {
    const app = join(dir, 'app.js');
    writeApp(app, ['alpha']);
    const client = RawStdioClient.spawn(process.execPath, [CLI, 'dev', app], { ...process.env, LOG_LEVEL: 'warn' }, dir);
    try {
      await client.initialize();
      writeFileSync(app, "throw new Error('boom at load');\n");
      expect(await eventually(() => client.stderr.includes('did not start'), 20_000)).toBe(true);
      expect(client.stderr).toContain('boom at load');
      // Where it threw, not "run npm run build first" (the build is fine; the module throws).
      expect(client.stderr).toContain(`${app}:1`);
      expect(client.stderr).not.toContain('run npm run build first');
      expect(client.stderr).toContain('still serving the last good build');
      expect(names(await client.request('tools/list'))).toEqual(['alpha']);
      expect(await client.request('tools/call', { name: 'alpha', arguments: {} })).toMatchObject({ result: { content: [{ text: 'alpha' }] } });

      writeApp(app, ['alpha', 'beta']);
      await client.waitFor((message) => message.method === 'notifications/tools/list_changed', 20_000);
      expect(names(await client.request('tools/list'))).toEqual(['alpha', 'beta']);
      // One handshake, never repeated to the client.
      expect(client.messages.filter((message) => (message.result as { protocolVersion?: string } | undefined)?.protocolVersion)).toHaveLength(1);
      expect(client.stray).toEqual([]);
    } catch (error) {
      // What dev and its children said is the story of a failure here.
      (error as Error).message += `\n--- dev stderr ---\n${client.stderr}\n--- client saw ---\n${JSON.stringify(client.messages)}`;
      throw error;
    } finally {
      client.kill();
    }
  }, 60_000);

  it('over stdio: a server that crashes while serving answers with a retryable error until the next build serves', async () => {
    const app = join(dir, 'app.js');
    writeFileSync(
      app,
      `const { createApp, Tool } = require(${JSON.stringify(CORE)});
class Tools {}
Tools.prototype.crash = async function () { setTimeout(() => { throw new Error('crash after answering'); }, 10); return 'ok'; };
Tool({ name: 'crash', input: null })(Tools.prototype, 'crash', Object.getOwnPropertyDescriptor(Tools.prototype, 'crash'));
exports.app = createApp({ name: 'dev-crash', version: '1', providers: [Tools] });
`,
    );
    const client = RawStdioClient.spawn(process.execPath, [CLI, 'dev', app], { ...process.env, LOG_LEVEL: 'warn' }, dir);
    try {
      await client.initialize();
      expect(await client.request('tools/call', { name: 'crash', arguments: {} })).toMatchObject({ result: { content: [{ text: 'ok' }] } });
      expect(await eventually(() => client.stderr.includes('the server exited (code 1)'), 10_000)).toBe(true);
      // Answered at once (it used to wait, unanswered, for the next build).
      expect(await client.request('tools/list', undefined, 3_000)).toMatchObject({ error: { code: -32603, data: { retryable: true } } });

      writeApp(app, ['alpha']);
      await client.waitFor((message) => message.method === 'notifications/tools/list_changed', 20_000);
      expect(names(await client.request('tools/list'))).toEqual(['alpha']);
      expect(client.stray).toEqual([]);
    } finally {
      client.kill();
    }
  }, 60_000);

  it('over HTTP: a build that throws on load leaves the last good build serving', async () => {
    const app = join(dir, 'app.js');
    writeApp(app, ['alpha']);
    const port = await freePort();
    const server = await HttpServerProcess.start(process.execPath, [CLI, 'dev', app, '--http', '--port', String(port)], { LOG_LEVEL: 'warn' });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const discover = async () => {
      const init = await fetch(server.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } }),
      });
      const session = { ...headers, 'mcp-session-id': init.headers.get('mcp-session-id')! };
      const answer = await fetch(server.url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
      return names((await answer.json()) as Record<string, unknown>);
    };
    try {
      expect(await discover()).toEqual(['alpha']);
      writeFileSync(app, "throw new Error('boom at load');\n");
      expect(await eventually(() => server.output.includes('did not start'), 20_000)).toBe(true);
      expect(await discover()).toEqual(['alpha']);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('over HTTP: a session survives a restart, rebuilt from the record the old build reported', async () => {
    const app = join(dir, 'app.js');
    writeApp(app, ['alpha']);
    const port = await freePort();
    const server = await HttpServerProcess.start(process.execPath, [CLI, 'dev', app, '--http', '--port', String(port)], { LOG_LEVEL: 'warn' });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    try {
      const init = await fetch(server.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {} } }),
      });
      const session = { ...headers, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18' };
      await init.text();
      const list = async () => {
        const answer = await fetch(server.url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
        return answer.status === 200 ? names((await answer.json()) as Record<string, unknown>) : [`HTTP ${answer.status}`];
      };
      expect(await list()).toEqual(['alpha']);
      writeApp(app, ['alpha', 'beta']);
      // Polled through the restart (bounded): the port may be closed a moment, the session is never unknown.
      const answers: string[][] = [];
      for (
        const deadline = Date.now() + 20_000;
        Date.now() < deadline && !answers.at(-1)?.includes('beta');
        await new Promise((resolve) => setTimeout(resolve, 200))
      ) {
        answers.push(await list().catch(() => ['refused']));
      }
      expect(answers.flat()).not.toContain('HTTP 404');
      const seen = answers.at(-1);
      // The same session id, served by the new build.
      expect(seen).toEqual(['alpha', 'beta']);
    } finally {
      await server.stop();
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
