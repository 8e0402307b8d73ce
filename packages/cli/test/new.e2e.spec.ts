import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RawStdioClient } from '@mcpkit/testing';
import { sh } from './sh';

const CLI = join(__dirname, '..', 'dist', 'cli.js');

describe('mcpkit new, as a new user would use it', () => {
  const root = mkdtempSync(join(tmpdir(), 'mcpkit-new-'));
  const dir = join(root, 'demo');

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('scaffolds a project that installs, builds, tests, inspects and serves', async () => {
    // Generous kill limits (no time is asserted): on a loaded 2-core machine packing eight
    // packages and installing them took past the default 240 s. The output is in the diff on failure.
    const created = await sh(process.execPath, [CLI, 'new', 'demo', '--dir', dir, '--yes'], root, 600_000);
    expect({ code: created.code, stderr: created.stderr.slice(-2000) }).toEqual({ code: 0, stderr: expect.any(String) });
    expect(created.stdout).toContain('created demo');
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; overrides: Record<string, string> };
    expect(pkg.dependencies['@mcpkit/core']).toMatch(/^file:\.\/vendor\/mcpkit-core-.+\.tgz$/);
    expect(pkg.overrides['@mcpkit/core']).toBe('$@mcpkit/core');
    // Not a dependency of the project, but of @mcpkit/fastify: its range goes to the tarball too.
    expect(pkg.overrides['@mcpkit/http']).toMatch(/^file:\.\/vendor\/mcpkit-http-.+\.tgz$/);

    const installed = await sh('npm', ['install', '--no-audit', '--no-fund'], dir, 600_000);
    expect({ code: installed.code, stderr: installed.stderr.slice(-2000) }).toEqual({ code: 0, stderr: expect.any(String) });
    expect((await sh('npm', ['run', 'build'], dir)).code).toBe(0);
    // As a user runs it, with no LOG_LEVEL: the test client keeps the app's request lines out.
    const { LOG_LEVEL: _level, ...userEnv } = process.env;
    const tests = await sh('npm', ['test'], dir, undefined, userEnv);
    expect(tests.code).toBe(0);
    expect(tests.stderr).toContain('3 passed');
    expect(tests.stderr).not.toMatch(/"level":30/);

    const inspected = await sh('npx', ['mcpkit', 'inspect', '--json'], dir);
    expect(inspected.code).toBe(0);
    expect((JSON.parse(inspected.stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)).toEqual(['greet']);

    const server = RawStdioClient.spawn('npm', ['start', '--silent', '--', '--stdio'], { ...process.env, LOG_LEVEL: 'warn' }, dir);
    try {
      await server.initialize();
      const list = await server.request('tools/list');
      expect((list.result as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)).toEqual(['greet']);
      expect(server.stray).toEqual([]);
    } finally {
      server.kill();
    }

    // mcpkit dev: the client stays connected while a source edit rebuilds and restarts the server.
    const client = new Client({ name: 'dev-client', version: '1' });
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
    await client.connect(
      new StdioClientTransport({
        command: 'npx',
        args: ['mcpkit', 'dev'],
        cwd: dir,
        env: { ...process.env, LOG_LEVEL: 'warn' } as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['greet']);
      // Let tsc --watch finish its first pass before the edit (slow on 2 cores).
      await new Promise((resolve) => setTimeout(resolve, 8_000));
      const source = join(dir, 'src', 'app.ts');
      const before = changes;
      writeFileSync(
        source,
        readFileSync(source, 'utf8').replace("@Tool({ description: 'Greets someone by name'", "@Tool({ name: 'welcome', description: 'Greets someone by name'"),
      );
      const deadline = Date.now() + 90_000;
      while (changes === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      expect(changes).toBeGreaterThan(before);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['welcome']);
      expect(await client.callTool({ name: 'welcome', arguments: { name: 'Lin' } })).toEqual({ content: [{ type: 'text', text: 'Hello, Lin!' }] });
    } finally {
      await client.close();
    }
  }, 1_500_000);
});
