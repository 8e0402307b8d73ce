import { once } from 'node:events';
import { connect, type AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildManifest, formatManifest } from '@mcpkit/cli';
import { createApp, precompiledValidatorsSource, type Logger, type PrecompiledValidators } from '@mcpkit/core';
import { firstText, RawStdioClient, TestClient } from '@mcpkit/testing';
import { weatherApp } from '../examples/tools.example';
import { Accounts, accountsApp } from '../examples/validation.example';
import { createInvitesApp } from '../examples/precompiled-validators.example';
import { worker } from '../examples/workers.example';
import { plannerApp } from '../examples/shapes.example';
import { filesApp } from '../examples/resources.example';
import { reviewApp } from '../examples/prompts.example';
import { summaryApp } from '../examples/prompt-errors.example';
import { reportsApp } from '../examples/resource-errors.example';
import { clockApp } from '../examples/app.example';
import { createConverterApp } from '../examples/programmatic.example';
import { adminApp } from '../examples/programmatic-guards.example';
import { reportsTaskApp } from '../examples/tasks.example';
import { guardedApp } from '../examples/guards.example';
import { app as authNotesApp } from '../examples/auth.example';
import { countOutcomes } from '../examples/channels.example';
import { reviewContract, searchApp } from '../examples/contract.example';
import { clockHandler, registryFiles } from '../examples/contract-files.example';
import { createFoldersApp } from '../examples/server-input.example';
import { todoApp } from '../examples/apps.example';
import { recordExampleOutput } from './example-output';

const ROOT = join(__dirname, '..', '..');
const DOCS = join(ROOT, 'docs');
const EXAMPLES = join(DOCS, 'examples');
const CLI = require.resolve('@mcpkit/cli/package.json').replace(/package\.json$/, 'dist/cli.js');

// What the examples answer here is what the docs site shows under them (`pnpm docs:build`).
recordExampleOutput('docs/test/examples.spec.ts', EXAMPLES, join(ROOT, '.cache', 'docs', 'example-output.json'));

/**
 * A server logger that keeps its lines at warn and above in `lines` (with the bindings of the child
 * that wrote them) instead of printing them: a test asserts the error lines an example expects.
 */
function keptLogger(lines: Array<Record<string, unknown>>, bindings: Record<string, unknown> = {}): Logger {
  const keep =
    (level: string) =>
    (first: unknown, message?: string): void =>
      void lines.push({ ...bindings, ...(typeof first === 'object' ? first : {}), level, msg: typeof first === 'string' ? first : message });
  const ignore = (): void => undefined;
  const logger = { level: 'warn', fatal: keep('fatal'), error: keep('error'), warn: keep('warn'), info: ignore, debug: ignore, trace: ignore };
  return {
    ...logger,
    child: (more) => keptLogger(lines, { ...bindings, ...more }),
    isLevelEnabled: (level) => ['warn', 'error', 'fatal'].includes(level),
  } as Logger;
}

/** The error line of a handler of `target` that threw `message`: the error goes to the log with its stack. */
const handlerThrew = (target: string, message: string) =>
  expect.objectContaining({ level: 'error', msg: 'request handler threw', target, err: expect.objectContaining({ message }) });

/** Every `<!-- example: file -->` marker must be followed by a code block equal to that file. */
function embeddedExamples(markdownPath: string): Array<{ file: string; code: string }> {
  const markdown = readFileSync(markdownPath, 'utf8');
  const found: Array<{ file: string; code: string }> = [];
  const marker = /<!-- example: ([\w.-]+) -->\s*```ts\n([\s\S]*?)```/g;
  for (let match = marker.exec(markdown); match; match = marker.exec(markdown)) found.push({ file: match[1], code: match[2] });
  return found;
}

describe('documentation examples', () => {
  // Feature pages and package READMEs carry runnable examples; benchmarks.md is a generated report,
  // index.md the docs site's home page.
  const pages = [
    join(ROOT, 'README.md'),
    ...readdirSync(DOCS)
      .filter((name) => name.endsWith('.md') && name !== 'benchmarks.md' && name !== 'index.md')
      .map((name) => join(DOCS, name)),
    ...readdirSync(join(ROOT, 'packages'))
      .map((name) => join(ROOT, 'packages', name, 'README.md'))
      .filter((path) => existsSync(path)),
  ];

  it.each(pages.map((page) => [page.slice(ROOT.length + 1), page]))('%s shows its examples verbatim', (_, page) => {
    const examples = embeddedExamples(page);
    expect(examples.length).toBeGreaterThan(0);
    for (const { file, code } of examples) expect(code).toBe(readFileSync(join(EXAMPLES, file), 'utf8'));
  });

  it('README: mcpkit start serves the greeter over stdio', async () => {
    const server = RawStdioClient.spawn(process.execPath, [CLI, 'start', join(DOCS, 'dist', 'readme.example.js')], { ...process.env, LOG_LEVEL: 'warn' });
    try {
      await server.initialize();
      expect(await server.request('tools/call', { name: 'greet', arguments: { name: 'Ada' } })).toMatchObject({
        result: { content: [{ text: 'Hello, Ada!' }] },
      });
      expect(await server.end()).toEqual({ code: 0, signal: null });
    } finally {
      server.kill();
    }
  });

  it('stdio: serves, skips oversized lines, and says bye after EOF', async () => {
    const server = RawStdioClient.spawn(process.execPath, [join(DOCS, 'dist', 'stdio.example.js')], { ...process.env, LOG_LEVEL: 'warn' });
    try {
      await server.initialize();
      server.writeLine('x'.repeat(9 * 1024 * 1024));
      expect(await server.waitFor((message) => message.id === null)).toMatchObject({ error: { code: -32600 } });
      expect(await server.request('tools/call', { name: 'hello', arguments: {} })).toMatchObject({ result: { content: [{ text: 'hello' }] } });
      expect(await server.end()).toEqual({ code: 0, signal: null });
      expect(server.stderr).toContain('bye');
    } finally {
      server.kill();
    }
  });

  it('tools: text, ToolError, structured output and content helpers', async () => {
    const client = await TestClient.connect(weatherApp);
    expect(firstText(await client.callTool('summary', { city: 'Oslo', days: 3 }))).toBe('Sunny in Oslo for 3 days');
    expect(await client.callTool('summary', { city: 'Atlantis', days: 1 })).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'Unknown city: Atlantis' }],
    });
    expect((await client.listTools()).find((tool) => tool.name === 'forecast')!.outputSchema).toBeDefined();
    expect((await client.callTool('chart')).content.map((block) => block.type)).toEqual(['text', 'image']);
  });

  it('guards: scopes, roles, @Public, a tenant guard, a filter and a rate limit', async () => {
    const anonymous = await TestClient.connect(guardedApp);
    expect((await anonymous.listTools()).map((tool) => tool.name)).toEqual(['status']);
    await expect(anonymous.callTool('search_notes', { text: 'x' })).rejects.toMatchObject({ code: -31001, data: { error: 'authentication_required' } });
    const reader = await TestClient.connect(guardedApp, { auth: { subject: 'ann', scopes: ['notes:read'], claims: { tenant: 'acme' } } });
    expect((await reader.listTools()).map((tool) => tool.name)).toEqual(['status', 'search_notes', 'create_note']);
    await expect(reader.callTool('create_note', { text: 'x' })).rejects.toMatchObject({ data: { error: 'insufficient_scope', scopes: ['notes:write'] } });
    await expect(reader.callTool('purge')).rejects.toMatchObject({ code: -32602, message: 'Unknown tool: purge' });
    const stranger = await TestClient.connect(guardedApp, { auth: { subject: 'eve', scopes: ['notes:write'], claims: { tenant: 'globex' } } });
    expect((await stranger.listTools()).map((tool) => tool.name)).toEqual(['status']);
    const writer = await TestClient.connect(guardedApp, { auth: { subject: 'bo', scopes: ['notes:write'], claims: { tenant: 'acme' } } });
    expect(firstText(await writer.callTool('search_notes', { text: 'x' }))).toBe('found "x"');
    expect(firstText(await writer.callTool('create_note', { text: 'x' }))).toBe('created "x" for bo');
    const admin = await TestClient.connect(guardedApp, { auth: { subject: 'root', scopes: [], claims: { tenant: 'acme', roles: ['admin'] } } });
    expect(await admin.callTool('purge')).toEqual({ isError: true, content: [{ type: 'text', text: 'The note store is down; try again in a minute.' }] });
  });

  it("auth: ctx.auth in a handler, a scope challenge, and a role read from the provider's namespaced claim", async () => {
    const reader = await TestClient.connect(authNotesApp, { auth: { subject: 'ann', scopes: ['notes:read'], claims: { roles: ['admin'] } } });
    expect(firstText(await reader.callTool('whoami'))).toBe('ann with notes:read');
    await expect(reader.callTool('write')).rejects.toMatchObject({ code: -31001, data: { error: 'insufficient_scope', scopes: ['notes:write'] } });
    // A plain `roles` claim is not the one @RequireRoles was told to read: purge stays absent.
    expect((await reader.listTools()).map((tool) => tool.name)).toEqual(['whoami', 'write']);
    await expect(reader.callTool('purge')).rejects.toMatchObject({ code: -32602, message: 'Unknown tool: purge' });
    const admin = await TestClient.connect(authNotesApp, {
      auth: { subject: 'root', scopes: ['notes:write'], claims: { 'https://notes.example.com/roles': ['admin'] } },
    });
    expect(firstText(await admin.callTool('write'))).toBe('written');
    expect(firstText(await admin.callTool('purge'))).toBe('purged');
  });

  it('observability: a diagnostics_channel subscriber sees every answer and its outcome', async () => {
    const watch = countOutcomes();
    try {
      const client = await TestClient.connect(weatherApp);
      await client.callTool('summary', { city: 'Oslo', days: 3 });
      await client.callTool('summary', { city: 'Atlantis', days: 1 });
      await client.listTools();
      // Made-up methods share one key: a client cannot grow the map.
      for (const method of ['made/up1', 'made/up2']) await expect(client.request(method)).rejects.toThrow();
      expect(Object.fromEntries(watch.counts)).toMatchObject({ 'tools/call ok': 1, 'tools/call tool_error': 1, 'tools/list ok': 1, '_OTHER error -32601': 2 });
      expect([...watch.counts.keys()].join()).not.toContain('made/up');
    } finally {
      watch.stop();
    }
  });

  it('validation: nested DTOs, stripping, strict mode and raw schemas', async () => {
    const client = await TestClient.connect(accountsApp);
    const input = { email: 'a@b.co', plan: 'pro', address: { street: 'Main', zip: '12345' }, comment: null };
    expect(firstText(await client.callTool('signup', { ...input, extra: 1 }))).toBe('Welcome a@b.co (pro, zip 12345)');
    expect(firstText(await client.callTool('signupStrict', { ...input, extra: 1 }))).toContain('extra: is not an allowed property');
    expect(firstText(await client.callTool('signup', { ...input, address: { street: 'Main', zip: 'x' } }))).toContain('address.zip');
    expect(firstText(await client.callTool('lookup', { id: 7 }))).toBe('#7');
    expect((await client.callTool('lookup', { id: 0 })).isError).toBe(true);
  });

  it('validation: precompiled validators check what ajv checks, and a stale module is refused naming the command', async () => {
    const command = 'mcpkit build-validators dist/app.js --export createInvitesApp --out dist/validators.generated.js';
    const dir = mkdtempSync(join(tmpdir(), 'mcpkit-validators-'));
    try {
      const file = join(dir, 'validators.generated.js');
      writeFileSync(file, precompiledValidatorsSource(createInvitesApp(), command).source);
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the generated module, loaded as an app loads it
      const validators = require(file) as PrecompiledValidators;
      const client = await TestClient.connect(createInvitesApp(validators));
      expect(firstText(await client.callTool('invite', { name: 'Ada', email: 'ada@example.com' }))).toBe('Invited Ada <ada@example.com>');
      const refused = await client.callTool('invite', { name: 'Ada', email: 'ada' });
      expect(refused.isError).toBe(true);
      expect(firstText(refused)).toContain('email');
      await client.close();
      // The Worker of docs/runtimes-workers.md, answering a validated call through its fetch.
      const meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'docs', version: '1' },
      };
      const answer = await worker(validators).fetch(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': 'invite',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'invite', arguments: { name: 'Ada', email: 'nope' }, _meta: meta },
          }),
        }),
      );
      expect(await answer.text()).toContain('"isError":true');
      // Another app's schemas: refused at start-up, naming the command that regenerates the module.
      expect(() => createApp({ name: 'accounts', version: '1.0.0', providers: [Accounts], validators })).toThrow(command);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('validation: every shape from decorators', async () => {
    const client = await TestClient.connect(plannerApp);
    const base = { site: 'data:text/plain,hi', owner: null };
    expect(firstText(await client.callTool('plan', base))).toBe('nobody: no shape, -, retries 3');
    const full = { ...base, owner: 'ada', start: '2027-01-02T03:04:05Z', shape: { kind: 'circle', radius: 2 }, labels: { a: 'x' }, day: '2026-07-28' };
    expect(
      firstText(await client.callTool('plan', { ...full, category: { name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] }, point: [1, 2] })),
    ).toBe('ada: circle r=2, 2027, retries 3');
    expect(firstText(await client.callTool('plan', { ...base, shape: { kind: 'square', side: 1 }, retries: 0 }))).toBe('nobody: square s=1, -, retries 0');
    for (const [bad, field] of [
      [{ ...base, site: 'nope' }, 'site'],
      [{ site: base.site }, 'owner'],
      [{ ...base, labels: { a: 1 } }, 'labels'],
      [{ ...base, shape: { kind: 'circle', side: 1 } }, 'shape'],
      [{ ...base, day: '2026-02-30' }, 'day'],
      [{ ...base, point: [1, 2, 3] }, 'point'],
      [{ ...base, category: { name: 'a', children: [{ name: 'b', children: [{ name: 3 }] }] } }, 'category'],
    ] as const) {
      const result = await client.callTool('plan', bad as Record<string, unknown>);
      expect(result.isError).toBe(true);
      expect(firstText(result)).toContain(field);
    }
  });

  it('resources: fixed, templated, missing and binary', async () => {
    const client = await TestClient.connect(filesApp);
    expect(firstText(await client.readResource('files:///src/index.ts'))).toBe('export {};');
    await expect(client.readResource('files:///missing.txt')).rejects.toMatchObject({ code: -32002, data: { uri: 'files:///missing.txt' } });
    expect((await client.readResource('logo://64?theme=dark')).contents[0]).toEqual({ uri: 'logo://64?theme=dark', mimeType: 'image/png', blob: 'AgE=' });
    expect(firstText(await client.readResource('files://index'))).toBe('readme.md\nsrc/index.ts');
  });

  it('prompts: arguments from the DTO, messages back', async () => {
    const client = await TestClient.connect(reviewApp);
    expect((await client.listPrompts())[0].arguments).toEqual([
      { name: 'code', description: 'The code to review', required: true },
      { name: 'tone', description: 'How picky to be', required: false },
    ]);
    expect((await client.getPrompt('review_code', { code: 'x = 1', tone: 'gentle' })).messages[0].content).toEqual({
      type: 'text',
      text: 'Review this code in a gentle tone:\n\nx = 1',
    });
    await expect(client.getPrompt('review_code', { tone: 'rude' })).rejects.toMatchObject({ code: -32602 });
    expect((await client.getPrompt('opening')).messages).toHaveLength(2);
  });

  it('prompts: a PromptError is sent as written, any other error masked', async () => {
    const logged: Array<Record<string, unknown>> = [];
    const client = await TestClient.connect(summaryApp, { logger: keptLogger(logged) });
    expect((await client.getPrompt('summarize', { id: '7' })).messages[0].content).toMatchObject({ text: expect.stringContaining('up 3%') });
    await expect(client.getPrompt('summarize', { id: '9' })).rejects.toMatchObject({ code: -32602, message: 'No document 9', data: { id: '9' } });
    await expect(client.getPrompt('summarize', { id: '8' })).rejects.toMatchObject({
      code: -32603,
      message: 'Document 8 is being edited; try again in a minute',
    });
    await expect(client.getPrompt('broken')).rejects.toMatchObject({ code: -32603, message: 'Internal error' });
    // The accident, with its stack, is in the server log (and only there).
    expect(logged).toEqual([handlerThrew('broken', 'template file missing at /srv/templates/broken.txt')]);
  });

  it('resources: a ResourceError is sent as written, not found stays -32002, any other error masked', async () => {
    const logged: Array<Record<string, unknown>> = [];
    const client = await TestClient.connect(reportsApp, { logger: keptLogger(logged) });
    expect(firstText(await client.readResource('reports://2026-q1'))).toBe('Revenue up 3%.');
    await expect(client.readResource('reports://2026-q2')).rejects.toMatchObject({
      code: -32603,
      message: 'Report 2026-q2 is still being generated; try again in a minute',
      data: { id: '2026-q2', retryAfterMs: 60_000 },
    });
    await expect(client.readResource('reports://1999-q1')).rejects.toMatchObject({ code: -32002 });
    await expect(client.readResource('archive://2020-q1')).rejects.toMatchObject({ code: -32603, message: 'Internal error' });
    expect(logged).toEqual([handlerThrew('archive://2020-q1', 'archive volume for 2020-q1 is not mounted at /mnt/archive')]);
  });

  it('app: resolve, instructions and the context', async () => {
    const client = await TestClient.connect(clockApp, { clientInfo: { name: 'docs', version: '1' } });
    expect(client.server.instructions).toBe('Ask for the time.');
    expect(firstText(await client.callTool('time'))).toBe('2026-01-01T00:00:00.000Z');
    expect(firstText(await client.callTool('wait', { ms: 1 }))).toBe('waited 1 ms for docs');
  });
});

describe('documentation example of programmatic definitions', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'mcpkit-notes-'));
    writeFileSync(join(folder, 'a b.md'), '# A');
    writeFileSync(join(folder, 'todo.md'), '- convert');
    writeFileSync(join(folder, 'skip.txt'), 'not markdown');
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('defines a tool per configured entry and a resource per file, beside a decorated class', async () => {
    const client = await TestClient.connect(createConverterApp(folder));
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['km_to_miles', 'kg_to_pounds', 'litres_to_gallons', 'units']);
    expect(firstText(await client.callTool('km_to_miles', { value: 10 }))).toBe('6.214');
    expect(firstText(await client.callTool('kg_to_pounds', { value: 'ten' }))).toContain('value: must be number');
    expect(firstText(await client.callTool('units'))).toBe('km_to_miles, kg_to_pounds, litres_to_gallons');
    expect((await client.listResources()).map((resource) => resource.uri)).toEqual(['notes:///a%20b.md', 'notes:///todo.md']);
    expect(firstText(await client.readResource('notes:///a%20b.md'))).toBe('# A');
  });

  it("gives defined tools the decorators' pipeline: public, scopes, roles, a guard and a rate limit", async () => {
    const names = async (auth?: Parameters<typeof TestClient.connect>[1] extends infer O ? (O extends { auth?: infer A } ? A : never) : never) =>
      (await (await TestClient.connect(adminApp, { auth })).listTools()).map((tool) => tool.name);
    expect(await names()).toEqual(['status']);
    expect(await names({ subject: 'ada', scopes: ['users:read'] })).toEqual(['status', 'list_users']);
    const boss = await TestClient.connect(adminApp, { auth: { subject: 'grace', scopes: [], claims: { roles: ['admin'], tenant: 'acme' } } });
    expect((await boss.listTools()).map((tool) => tool.name)).toEqual(['status', 'list_users', 'purge_users']);
    expect(firstText(await boss.callTool('purge_users'))).toBe('purged by grace');
    expect(firstText(await boss.callTool('purge_users'))).toMatch(/^rate limit: retry in \d+ s$/);
    const otherTenant = await TestClient.connect(adminApp, { auth: { subject: 'eve', scopes: [], claims: { roles: ['admin'], tenant: 'evil' } } });
    expect((await otherTenant.listTools()).map((tool) => tool.name)).not.toContain('purge_users');
  });

  it('mcpkit start serves them to the official SDK client over stdio', async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const client = new Client({ name: 'docs', version: '1' });
    const env = { ...process.env, LOG_LEVEL: 'warn', NOTES_DIR: folder } as Record<string, string>;
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'start', join(DOCS, 'dist', 'programmatic.example.js')], env }));
    try {
      const { tools } = await client.listTools();
      expect(tools.find((tool) => tool.name === 'litres_to_gallons')).toEqual({
        name: 'litres_to_gallons',
        description: 'Litres to US gallons',
        inputSchema: { type: 'object', properties: { value: { type: 'number' } }, required: ['value'] },
        annotations: { readOnlyHint: true },
      });
      expect(await client.callTool({ name: 'litres_to_gallons', arguments: { value: 100 } })).toEqual({ content: [{ type: 'text', text: '26.417' }] });
      expect(await client.callTool({ name: 'litres_to_gallons', arguments: {} })).toMatchObject({ isError: true });
      expect((await client.readResource({ uri: 'notes:///todo.md' })).contents).toEqual([
        { uri: 'notes:///todo.md', mimeType: 'text/markdown', text: '- convert' },
      ]);
    } finally {
      await client.close();
    }
  });
});

describe('documentation examples over HTTP', () => {
  it('http: mounted next to the service routes, and standalone with SSE progress', async () => {
    const { mounted, standalone } = await import('../examples/http.example');
    const service = await mounted();
    expect((await service.inject({ method: 'GET', url: '/health' })).json()).toEqual({ ok: true });
    const init = await service.inject({
      method: 'POST',
      url: '/mcp',
      headers: { host: 'reports.internal', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } }),
    });
    expect(init.statusCode).toBe(200);
    await service.close();

    const server = await standalone();
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const client = new Client({ name: 'docs', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { 'x-team': 'ops' } } }));
    const progress: string[] = [];
    const result = await client.callTool({ name: 'build', arguments: {} }, undefined, { onprogress: (p) => progress.push(p.message ?? '') });
    expect(result.content).toEqual([{ type: 'text', text: 'report for ops' }]);
    expect(progress[0]).toBe('part 1 of 3');
    await client.close();
    await server.close();
  });

  it('http: the fetch handler mounted on Hono serves the SDK client, SSE progress included', async () => {
    const { hono, shutdown } = await import('../examples/fetch.example');
    expect(await (await hono.fetch(new Request('http://localhost/health'))).json()).toEqual({ ok: true });
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const client = new Client({ name: 'docs', version: '1' });
    // No socket: the client's requests go straight to Hono's fetch.
    const fetchThroughHono = (url: string | URL, init?: RequestInit) => Promise.resolve(hono.fetch(new Request(url, init)));
    const transport = new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
      fetch: fetchThroughHono,
      requestInit: { headers: { 'x-user': 'ada' } },
    });
    await client.connect(transport);
    expect(transport.sessionId).toBeDefined();
    const progress: string[] = [];
    const result = await client.callTool({ name: 'search', arguments: {} }, undefined, { onprogress: (p) => progress.push(p.message ?? '') });
    expect(result.content).toEqual([{ type: 'text', text: '3 hits for ada' }]);
    expect(progress).toEqual(['indexing']);
    await client.close();
    await shutdown();
  });
  it('http: the node:http binding serves the SDK client on a real socket, and other paths go to next', async () => {
    const { server, shutdown } = await import('../examples/node-http.example');
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect(await (await fetch(`${base}/health`)).json()).toEqual({ ok: true });
    expect((await fetch(`${base}/elsewhere`)).status).toBe(404);
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const client = new Client({ name: 'docs', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { 'x-city': 'Lima' } } });
    await client.connect(transport);
    expect(transport.sessionId).toBeDefined();
    const result = await client.callTool({ name: 'now', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'noon in Lima' }]);
    await client.close();
    // A client halfway through sending a request does not hold the shutdown up.
    const arrived = once(server, 'request');
    const slow = connect((server.address() as AddressInfo).port, '127.0.0.1');
    const gone = once(slow, 'close');
    slow.on('error', () => undefined);
    slow.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc"');
    await arrived;
    await shutdown();
    await gone;
  });
});

describe('documentation example of tool errors and filters', () => {
  it('masks an unexpected error by default, and a filter instance (method or app) says what the model may know', async () => {
    const { stockApp, Stock } = await import('../examples/tool-errors.example');
    const client = await TestClient.connect(stockApp);
    expect(await client.callTool('stock', { sku: 'a1' })).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'Stock is unavailable; try again in a minute.' }],
    });
    expect(firstText(await client.callTool('reserve', { sku: 'a1' }))).toBe('Stock is unavailable; try again in five minutes.');
    const lines: Array<Record<string, unknown>> = [];
    const bare = await TestClient.connect(createApp({ name: 'stock', version: '1.0.0', providers: [Stock], logger: keptLogger(lines) }));
    expect(firstText(await bare.callTool('reserve', { sku: 'a1' }))).toBe('Tool reserve failed with an internal error; details are in the server log.');
    expect(lines).toEqual([
      expect.objectContaining({ level: 'error', err: expect.objectContaining({ message: expect.stringContaining('stock service: UPDATE stock') }) }),
    ]);
  });
});

describe('documentation examples of the client features', () => {
  it('client requests: elicitation from a DTO, sampling and roots', async () => {
    const { deployApp } = await import('../examples/client-requests.example');
    const client = await TestClient.connect(deployApp, {
      handlers: {
        'elicitation/create': () => ({ action: 'accept', content: { confirm: true, environment: 'production' } }),
        'sampling/createMessage': () => ({ role: 'assistant', model: 'm', content: { type: 'text', text: 'Faster deploys.' } }),
        'roots/list': () => ({ roots: [{ uri: 'file:///srv/api' }] }),
      },
    });
    expect(firstText(await client.callTool('deploy', { service: 'api' }))).toBe('Deploying api to production');
    expect(firstText(await client.callTool('releaseNotes', { service: 'api' }))).toBe('Faster deploys.');
  });

  it('roots: kept per session, asked again after a change, which the hook hears', async () => {
    const { workspaceApp, announced } = await import('../examples/roots.example');
    const roots = [[{ uri: 'file:///srv/api' }]];
    let asked = 0;
    const client = await TestClient.connect(workspaceApp, { handlers: { 'roots/list': () => (asked++, { roots: roots[0] }) } });
    expect(firstText(await client.callTool('folders'))).toBe('file:///srv/api');
    expect(firstText(await client.callTool('folders'))).toBe('file:///srv/api');
    expect(asked).toBe(1);
    roots[0] = [{ uri: 'file:///srv/web' }];
    await client.notify('notifications/roots/list_changed');
    await new Promise((resolve) => setImmediate(resolve));
    expect(announced.get(undefined)).toEqual([{ uri: 'file:///srv/web' }]);
    expect(firstText(await client.callTool('folders'))).toBe('file:///srv/web');
    expect(asked).toBe(2);
  });

  it('client logging and progress', async () => {
    const { importApp } = await import('../examples/client-logging.example');
    const client = await TestClient.connect(importApp);
    await client.setLogLevel('warning');
    await client.callTool('import', { rows: 600 }, { progressToken: 'p1' });
    expect(client.notifications('notifications/message')).toEqual([{ level: 'warning', logger: 'importer', data: { rows: 600, hint: 'split large imports' } }]);
    expect(client.notifications('notifications/progress').map((p) => p.progress)).toEqual([100, 200, 300, 400, 500, 600]);
  });

  it('completions', async () => {
    const { reviewApp: codeReview } = await import('../examples/completions.example');
    const client = await TestClient.connect(codeReview);
    expect((await client.complete({ type: 'ref/prompt', name: 'review' }, { name: 'language', value: 'py' })).values).toEqual(['python']);
    expect((await client.complete({ type: 'ref/prompt', name: 'review' }, { name: 'framework', value: '' }, { language: 'typescript' })).values).toEqual([
      'fastify',
      'nest',
    ]);
    expect((await client.complete({ type: 'ref/resource', uri: 'styleguide://{language}' }, { name: 'language', value: 'r' })).values).toEqual(['rust']);
  });

  it('subscriptions', async () => {
    const { homeApp, measured } = await import('../examples/subscriptions.example');
    const client = await TestClient.connect(homeApp);
    await client.subscribe('home://temperature');
    measured(23);
    expect(client.notifications('notifications/resources/updated')).toEqual([{ uri: 'home://temperature' }]);
    expect(firstText(await client.readResource('home://temperature'))).toBe('23 °C');
  });
});

describe('documentation example of run-time changes', () => {
  it('flips a tool on and off, telling the client', async () => {
    const { app, setBeta } = await import('../examples/runtime.example');
    const client = await TestClient.connect(app);
    expect(client.server.capabilities.tools).toEqual({ listChanged: true });
    setBeta(true);
    expect(firstText(await client.callTool('beta'))).toBe('beta feature');
    setBeta(false);
    await expect(client.callTool('beta')).rejects.toMatchObject({ code: -32602 });
    setBeta(true);
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['status', 'fetchReport', 'beta']);
    expect(client.notifications('notifications/tools/list_changed')).toHaveLength(3);
  });
});

describe('documentation example of the CLI', () => {
  it('inspects and calls the example app', async () => {
    const { execFileSync } = await import('node:child_process');
    const entry = join(DOCS, 'dist', 'cli.example.js');
    const env = { ...process.env, LOG_LEVEL: 'warn' };
    expect(JSON.parse(execFileSync(process.execPath, [CLI, 'inspect', entry, '--json'], { env, encoding: 'utf8' })).tools[0].name).toBe('add');
    expect(execFileSync(process.execPath, [CLI, 'call', 'add', 'a=2', 'b=40', entry], { env, encoding: 'utf8' })).toBe('42\n');
  });
});

describe('the server input example: arguments after --, --env, and mcpkit install', () => {
  it('a test gives the factory its folders and environment', async () => {
    const client = await TestClient.connect(createFoldersApp(['/srv/a'], { FOLDERS_LABEL: 'test' }));
    expect(firstText(await client.callTool('check', { path: '/srv/a/x.txt' }))).toBe('test: /srv/a/x.txt is allowed');
    expect(firstText(await client.callTool('check', { path: '/srv/ab' }))).toBe('test: /srv/ab is outside /srv/a');
  });

  it('mcpkit start serves it with the folders after -- and the label from --env', async () => {
    const entry = join(DOCS, 'dist', 'server-input.example.js');
    const args = [CLI, 'start', entry, '--env', 'FOLDERS_LABEL=docs', '--', '/srv/a', '/srv/b'];
    const server = RawStdioClient.spawn(process.execPath, args, { ...process.env, LOG_LEVEL: 'warn' });
    try {
      await server.initialize();
      expect(await server.request('tools/call', { name: 'check', arguments: { path: '/srv/b/notes' } })).toMatchObject({
        result: { content: [{ text: 'docs: /srv/b/notes is allowed' }] },
      });
    } finally {
      server.kill();
    }
  });

  it('mcpkit install writes it into a client file beside what was there, and uninstall takes exactly it out', async () => {
    const { execFileSync } = await import('node:child_process');
    const dir = mkdtempSync(join(tmpdir(), 'mcpkit-install-doc-'));
    try {
      const file = join(dir, 'claude_desktop_config.json');
      const before = '{\n  "mcpServers": {\n    "other": { "command": "other-mcp" }\n  }\n}\n';
      writeFileSync(file, before);
      const entry = join(DOCS, 'dist', 'server-input.example.js');
      const env = { ...process.env, LOG_LEVEL: 'warn' };
      const install = ['install', entry, '--client', 'claude-desktop', '--config-file', file, '--env', 'FOLDERS_LABEL=docs', '--', '/srv/a'];
      execFileSync(process.execPath, [CLI, ...install], { env, stdio: 'pipe' });
      expect(JSON.parse(readFileSync(file, 'utf8')).mcpServers.folders).toEqual({
        command: process.execPath,
        args: [CLI, 'start', entry, '--stdio', '--', '/srv/a'],
        env: { FOLDERS_LABEL: 'docs' },
      });
      execFileSync(process.execPath, [CLI, 'uninstall', 'folders', '--client', 'claude-desktop', '--config-file', file], { env, stdio: 'pipe' });
      expect(readFileSync(file, 'utf8')).toBe(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('contract: the manifest, diff and lint of the search example', () => {
  it('finds nothing against its own manifest, a breaking change against an older one, and counts its tokens', () => {
    const released = formatManifest(buildManifest(searchApp));
    const same = reviewContract(released);
    expect(same).toMatchObject({ breaking: 0, lintErrors: 0 });
    expect(same.tokens).toBeGreaterThan(50);
    expect(same.tokens).toBeLessThan(2000);
    // The last release took longer queries: a client that sent 300 characters is refused now.
    const older = reviewContract(released.replaceAll('"maxLength": 200', '"maxLength": 500'));
    expect(older.breaking).toBe(1);
    expect(older.markdown).toContain(
      `| **breaking** | tool \`search_notes\` | input /query: maxLength 500 → 200<br>witness: \`{"query":"${'a'.repeat(201)}"}\` | \`input-constraint-tightened\` |`,
    );
  });

  it("runs the CI recipe's commands: manifest --check, lint, and the diff's breaking count as JSON", async () => {
    const { execFile } = await import('node:child_process');
    const dir = mkdtempSync(join(tmpdir(), 'mcpkit-contract-doc-'));
    const run = (args: string[]) =>
      new Promise<{ code: number; stdout: string }>((resolve) =>
        execFile(process.execPath, [CLI, ...args], { env: { ...process.env, LOG_LEVEL: 'warn' } }, (error, stdout) =>
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout }),
        ),
      );
    try {
      const entry = join(DOCS, 'dist', 'contract.example.js');
      const manifest = join(dir, 'mcp-manifest.json');
      expect(await run(['manifest', entry, '--out', manifest])).toEqual({ code: 0, stdout: '' });
      expect(await run(['manifest', entry, '--out', manifest, '--check'])).toEqual({ code: 0, stdout: '' });
      expect((await run(['lint', entry])).code).toBe(0);
      const base = join(dir, 'base-manifest.json');
      writeFileSync(base, readFileSync(manifest, 'utf8').replaceAll('"maxLength": 200', '"maxLength": 500'));
      const diff = await run(['diff', base, manifest, '--format', 'json', '--fail-on', 'none']);
      expect(diff.code).toBe(0);
      expect((JSON.parse(diff.stdout) as { counts: { breaking: number } }).counts.breaking).toBe(1);
      expect((await run(['diff', base, manifest])).code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The examples that are not an app module, and why: loading one with the CLI would run it. */
const NOT_AN_APP: Record<string, string> = {
  'stdio.example.ts': 'an entry that serves stdio when run (it shows serveStdio and its options; mcpkit start does this for an exported app)',
  'session-restore.example.ts': 'an entry that serves stdio when run (it shows serveStdio continuing a handed-over session)',
  'fastify-package.example.ts': 'an entry that listens on port 3000 when run (it shows serveHttp in a script of your own)',
  'scale-out.example.ts': 'a function that starts an instance on a Redis (the scale-out test runs two against a real redis-server), not an app module',
  'channels.example.ts': 'a helper (a diagnostics_channel subscriber), not an app: the observability test runs it against one',
  'eras.example.spec.ts': 'a jest spec (describe and it at load): it tests an app',
  'protocol.example.spec.ts': 'a jest spec (describe and it at load): it tests an app',
  'testing.example.spec.ts': 'a jest spec (describe and it at load): it tests an app',
  'testing-package.example.spec.ts': 'a jest spec (describe and it at load): it tests an app',
  'websocket.example.ts': 'a transport (serveWebSocket), not an app: docs/test/websocket.spec.ts serves the testbed app with it',
  'redis.example.ts': 'starts an instance on a running Redis; packages/redis/test/readme-example.int.spec.ts runs two of them',
  'client.example.ts': 'a client of a server, not an app: docs/test/client.spec.ts runs it against apps/everything over stdio and HTTP',
  'proxy.example.ts': 'an app made once the remote answered (proxy() is async): docs/test/proxy.spec.ts runs it against apps/everything over stdio',
  'gateway.example.ts': 'an app made once its upstreams answered (proxy() and fromOpenApi() are async): docs/test/gateway.spec.ts runs it',
};

describe('every documentation example is an app the CLI loads', () => {
  const files = readdirSync(EXAMPLES).filter((name) => name.endsWith('.ts'));

  it('skips only examples that exist, each with its reason', () => {
    for (const [file, reason] of Object.entries(NOT_AN_APP)) {
      expect(files).toContain(file);
      expect(reason.length).toBeGreaterThan(0);
    }
  });

  it.each(files.filter((name) => !(name in NOT_AN_APP)))('mcpkit inspect loads %s', async (file) => {
    const { execFile } = await import('node:child_process');
    const entry = join(DOCS, 'dist', file.replace(/\.ts$/, '.js'));
    // A child of its own: the CLI's loader as a user meets it, and a module that kept the process alive would time out here.
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, [CLI, 'inspect', entry, '--json'], { env: { ...process.env, LOG_LEVEL: 'warn' }, timeout: 20_000 }, (error, out, err) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout: out, stderr: err }),
      ),
    );
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect((JSON.parse(stdout) as { server: { name: string } }).server.name).toEqual(expect.any(String));
  });
});

describe('tasks: the reports example', () => {
  const EXT = 'io.modelcontextprotocol/tasks';

  async function until(client: TestClient, taskId: string, done: (state: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    for (let i = 0; i < 200; i += 1) {
      const state = await client.request('tasks/get', { taskId });
      if (done(state)) return state;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error(`task ${taskId} did not get there`);
  }

  it('2025-11-25: runs report as a task, with status messages, and reads its result', async () => {
    const client = await TestClient.connect(reportsTaskApp);
    const { task } = await client.request<{ task: { taskId: string; status: string } }>('tools/call', {
      name: 'report',
      arguments: { region: 'north', months: 3 },
      task: { ttl: 60_000 },
    });
    expect(task.status).toBe('working');
    const result = await client.request('tasks/result', { taskId: task.taskId });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'Report for north: 3 months' }] });
    expect(await client.request('tasks/get', { taskId: task.taskId })).toMatchObject({ status: 'completed', statusMessage: 'month 3 of 3' });
    // The same tool without a task answers inline.
    expect(firstText(await client.callTool('report', { region: 'south', months: 1 }))).toBe('Report for south: 1 months');
    client.close();
  });

  it('2026-07-28: asks the signer before the task, confirms inside it through tasks/update', async () => {
    const client = await TestClient.connect(reportsTaskApp, {
      era: 'modern',
      capabilities: { elicitation: {}, extensions: { [EXT]: {} } },
      handlers: { 'elicitation/create': () => ({ action: 'accept', content: { name: 'Ada' } }) },
    });
    const created = await client.request<{ resultType: string; taskId: string }>('tools/call', { name: 'signOff', arguments: {} });
    expect(created.resultType).toBe('task');
    const waiting = await until(client, created.taskId, (state) => state.status === 'input_required');
    expect(Object.keys(waiting.inputRequests as object)).toEqual(['confirm']);
    await client.request('tasks/update', { taskId: created.taskId, inputResponses: { confirm: { action: 'accept', content: { ok: true } } } });
    const done = await until(client, created.taskId, (state) => state.status === 'completed');
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'Signed by Ada' }] });
    client.close();
  });

  it('cancels a report through its signal', async () => {
    const client = await TestClient.connect(reportsTaskApp, { era: 'modern', capabilities: { extensions: { [EXT]: {} } } });
    const { taskId } = await client.request<{ taskId: string }>('tools/call', { name: 'report', arguments: { region: 'west', months: 12 } });
    await client.request('tasks/cancel', { taskId });
    expect((await until(client, taskId, (state) => state.status !== 'working')).status).toBe('cancelled');
    client.close();
  });
});

describe('documentation examples with a real Redis', () => {
  it('scale-out: a session made on one instance is served by the other', async () => {
    const { startRedisServer } = await import('../../packages/redis/test/support/redis-server');
    const { startInstance } = await import('../examples/scale-out.example');
    const redis = await startRedisServer();
    const [a, b] = await Promise.all([startInstance(redis.url, 'a'), startInstance(redis.url, 'b')]);
    try {
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
      const post = (url: string, body: unknown, sessionId?: string) =>
        fetch(url, { method: 'POST', headers: sessionId ? { ...headers, 'mcp-session-id': sessionId } : headers, body: JSON.stringify(body) });
      const init = await post(a.url, {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'docs', version: '1' } },
      });
      const sessionId = init.headers.get('mcp-session-id')!;
      expect((await post(b.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId)).status).toBe(202);
      const answer = await post(b.url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', arguments: {} } }, sessionId);
      expect(await answer.json()).toMatchObject({ result: { content: [{ type: 'text', text: 'served by b' }] } });
      expect((await post(b.url, { jsonrpc: '2.0', id: 3, method: 'ping' }, 'unknown-session')).status).toBe(404);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await redis.stop();
    }
  });
});

describe('contract: the registry and bundle files and the Server Card of the clock example', () => {
  it('writes server.json and the .mcpb manifest from package.json and the app', () => {
    const { serverJson, mcpb } = registryFiles();
    expect(serverJson).toMatchObject({
      name: 'io.github.example/clock',
      version: '2.0.0',
      packages: [
        { registryType: 'npm', identifier: '@example/clock-mcp', transport: { type: 'stdio' }, environmentVariables: [{ name: 'CLOCK_ZONE', default: 'UTC' }] },
      ],
      remotes: [{ type: 'streamable-http', url: 'https://clock.example.com/mcp' }],
    });
    expect(mcpb).toMatchObject({
      server: { mcp_config: { command: 'node', args: ['${__dirname}/dist/main.js', '--stdio'], env: { CLOCK_ZONE: '${user_config.CLOCK_ZONE}' } } },
      tools: [{ name: 'now', description: 'Tells the time in UTC' }],
      user_config: { CLOCK_ZONE: { type: 'string', default: 'UTC', required: false } },
    });
  });

  it('serves the Server Card at /mcp/server-card', async () => {
    const answer = await clockHandler(new Request('https://clock.example.com/mcp/server-card'));
    expect(await answer.json()).toMatchObject({ name: 'io.github.example/clock', title: 'Clock', remotes: [{ url: 'https://clock.example.com/mcp' }] });
  });
});

describe('apps: the todo board example', () => {
  const UI = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

  it.each(['legacy', 'modern'] as const)('serves the view and links the tools for a %s client with MCP Apps', async (era) => {
    const client = await TestClient.connect(todoApp, { era, capabilities: UI });
    expect(client.server.capabilities).toMatchObject({ extensions: { 'io.modelcontextprotocol/ui': {} } });
    const [view] = await client.listResources();
    expect(view).toMatchObject({ uri: 'ui://todos/board', mimeType: 'text/html;profile=mcp-app', _meta: { ui: { prefersBorder: true } } });
    expect((await client.readResource('ui://todos/board')).contents[0]).toMatchObject({
      mimeType: 'text/html;profile=mcp-app',
      text: expect.stringContaining('<h1>Todos</h1>'),
      _meta: { ui: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true } },
    });
    const tools = await client.listTools();
    expect(tools.map((tool) => [tool.name, tool._meta?.ui])).toEqual([
      ['show_todos', { resourceUri: 'ui://todos/board' }],
      ['board_todos', { resourceUri: 'ui://todos/board', visibility: ['app'] }],
      ['add_todo', undefined],
    ]);
    expect((await client.callTool('board_todos')).structuredContent).toEqual({ todos: expect.arrayContaining(['Water the plants']) });
  });

  it.each(['legacy', 'modern'] as const)('gives a %s client without it the tools as text, and not the board-only one', async (era) => {
    const client = await TestClient.connect(todoApp, { era });
    expect((await client.listTools()).map((tool) => [tool.name, tool._meta])).toEqual([
      ['show_todos', undefined],
      ['add_todo', undefined],
    ]);
    expect(firstText(await client.callTool('show_todos'))).toContain('- Water the plants');
    await expect(client.callTool('board_todos')).rejects.toMatchObject({ code: -32602, message: 'Unknown tool: board_todos' });
  });
});

describe('documentation example of composing apps', () => {
  it('mounts billing and reshapes its tools: namespaced, hidden tenant, dropped by tag, resources as tools', async () => {
    const { gateway, createBilling } = await import('../examples/compose.example');
    const auth = { subject: 'ada', scopes: ['billing'], claims: { tenant: 'acme' } };
    for (const era of ['legacy', 'modern'] as const) {
      const client = await TestClient.connect(gateway, { era, auth });
      const tools = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['charge', 'list_resources', 'read_resource']);
      expect(Object.keys(tools[0].inputSchema.properties ?? {})).toEqual(['cents']);
      expect(firstText(await client.callTool('charge', { cents: 250, tenant: 'someone-else' }))).toBe('charged acme 250 cents');
      expect(firstText(await client.readResource('billing+invoices://latest'))).toBe('the latest invoice (invoices://latest)');
      expect(firstText(await client.readResource('billing+invoices://7'))).toBe('invoice 7');
      const read = await client.callTool('read_resource', { uri: 'billing+invoices://7' });
      expect(read.content).toEqual([{ type: 'resource', resource: { uri: 'billing+invoices://7', mimeType: 'text/plain', text: 'invoice 7' } }]);
      // Billing's own guard, at the gateway.
      const outsider = await TestClient.connect(gateway, { era, auth: { subject: 'bob', scopes: [], claims: { tenant: 'acme' } } });
      await expect(outsider.callTool('charge', { cents: 1 })).rejects.toMatchObject({ code: expect.any(Number) });
    }
    // billing still serves on its own, unchanged.
    expect((await (await TestClient.connect(createBilling())).listTools()).map((tool) => tool.name)).toEqual(['charge', 'dump']);
  });
});
