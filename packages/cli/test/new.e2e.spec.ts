import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RawStdioClient } from '@mcpkit/testing';

const CLI = join(__dirname, '..', 'dist', 'cli.js');

function sh(command: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: { ...process.env, LOG_LEVEL: 'warn' }, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('mcpkit new, as a new user would use it', () => {
  const root = mkdtempSync(join(tmpdir(), 'mcpkit-new-'));
  const dir = join(root, 'demo');

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('scaffolds a project that installs, builds, tests, inspects and serves', async () => {
    const created = await sh(process.execPath, [CLI, 'new', 'demo', '--dir', dir, '--yes'], root);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('created demo');
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; overrides: Record<string, string> };
    expect(pkg.dependencies['@mcpkit/core']).toMatch(/^file:\.\/vendor\/mcpkit-core-.+\.tgz$/);
    expect(pkg.overrides['@mcpkit/core']).toBe('$@mcpkit/core');

    expect((await sh('npm', ['install', '--no-audit', '--no-fund'], dir)).code).toBe(0);
    expect((await sh('npm', ['run', 'build'], dir)).code).toBe(0);
    const tests = await sh('npm', ['test'], dir);
    expect(tests.code).toBe(0);
    expect(tests.stderr).toContain('3 passed');

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
  }, 300_000);
});
