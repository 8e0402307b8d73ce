import { lstatSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sh } from './sh';

const CLI = join(__dirname, '..', 'dist', 'cli.js');

// `mcpkit new` run from a checkout (no registry holds these versions): it packs the workspace into
// the project's vendor/ and points every @mcpkit range at those tarballs. What a scaffolded
// project then does (tests, inspect, start, `mcpkit dev`) is shown from the registry, as users get
// it, by registry.slow.spec.ts; this suite shows that the vendored project installs and builds.
describe('mcpkit new from a checkout (vendored tarballs)', () => {
  const root = mkdtempSync(join(tmpdir(), 'mcpkit-new-'));
  const dir = join(root, 'demo');

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('scaffolds a project whose vendored tarballs install with npm, and which builds and lists its tool', async () => {
    // Generous kill limits (no time is asserted): on a loaded 2-core machine packing and
    // installing took past the default 240 s. The output is in the diff on failure.
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
    // Installed from the tarballs, not linked to the checkout.
    const core = join(dir, 'node_modules', '@mcpkit', 'core');
    expect(lstatSync(core).isSymbolicLink()).toBe(false);
    expect(realpathSync(core).startsWith(dir)).toBe(true);
    expect((await sh('npm', ['run', 'build'], dir)).code).toBe(0);
    const inspected = await sh('npx', ['--no-install', 'mcpkit', 'inspect', '--json'], dir);
    expect(inspected.code).toBe(0);
    expect((JSON.parse(inspected.stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)).toEqual(['greet']);
  }, 1_500_000);
});
