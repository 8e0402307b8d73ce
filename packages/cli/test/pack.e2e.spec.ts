import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RawStdioClient } from '@mcpkit/testing';
import { packWorkspace, publishedPackages, type PackedPackage } from '../src/new/pack-workspace';
import { sh } from './sh';

const ROOT = join(__dirname, '..', '..', '..');

// A user's server in plain CommonJS: no compiler, so the decorator is applied by hand (a tool
// without input needs no design metadata).
const SERVER = `const { createApp, Tool } = require('@mcpkit/core');
const { serveStdio } = require('@mcpkit/stdio');
class Hello {
  hello() {
    return 'hello from the tarballs';
  }
}
Tool({ description: 'Says hello', input: null })(Hello.prototype, 'hello', Object.getOwnPropertyDescriptor(Hello.prototype, 'hello'));
serveStdio(createApp({ name: 'packed', version: '1.0.0', providers: [Hello] }));
`;

describe('pnpm pack of every published package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-pack-'));
  let packed: PackedPackage[] = [];

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('packs each package with its LICENSE and README, and only what it publishes', () => {
    packed = packWorkspace(ROOT, join(dir, 'vendor'));
    expect(packed.map((pkg) => pkg.name).sort()).toEqual(
      publishedPackages(ROOT)
        .map((pkg) => pkg.name)
        .sort(),
    );
    expect(packed.map((pkg) => pkg.name)).toEqual(
      expect.arrayContaining(['@mcpkit/core', '@mcpkit/stdio', '@mcpkit/fastify', '@mcpkit/testing', '@mcpkit/cli']),
    );
    for (const { name, file } of packed) {
      const entries = execFileSync('tar', ['-tzf', join(dir, 'vendor', file)], { encoding: 'utf8' }).split('\n');
      expect({ name, license: entries.includes('package/LICENSE'), readme: entries.includes('package/README.md') }).toEqual({
        name,
        license: true,
        readme: true,
      });
      expect(entries.filter((entry) => /\.spec\.|\/test\/|\/src\//.test(entry))).toEqual([]);
      const manifest = JSON.parse(execFileSync('tar', ['-xOzf', join(dir, 'vendor', file), 'package/package.json'], { encoding: 'utf8' })) as {
        dependencies?: Record<string, string>;
      };
      expect(Object.values(manifest.dependencies ?? {}).filter((range) => range.startsWith('workspace:'))).toEqual([]);
    }
  }, 120_000);

  it('installs into a fresh folder and serves over stdio from the tarballs', async () => {
    expect(packed.length).toBeGreaterThan(0);
    const specs = Object.fromEntries(packed.map(({ name, file }) => [name, `file:./vendor/${file}`]));
    const pkg = {
      name: 'packed-app',
      version: '1.0.0',
      private: true,
      dependencies: { ...specs, 'class-transformer': '^0.5.1', 'class-validator': '^0.15.1', fastify: '^5.12.8', 'reflect-metadata': '^0.2.2' },
      // The tarballs' own @mcpkit ranges (^0.1.0) must find the tarballs, not the registry.
      overrides: Object.fromEntries(packed.map(({ name }) => [name, `$${name}`])),
    };
    writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
    writeFileSync(join(dir, 'server.js'), SERVER);
    const installed = await sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], dir, 180_000);
    expect({ code: installed.code, stderr: installed.stderr }).toEqual({ code: 0, stderr: '' });

    // Every package root loads, from CommonJS and from ESM.
    const names = packed.map((pack) => pack.name);
    expect((await sh(process.execPath, ['-e', `for (const name of ${JSON.stringify(names)}) require(name)`], dir, 30_000)).code).toBe(0);
    expect((await sh(process.execPath, ['--input-type=module', '-e', names.map((name) => `import '${name}';`).join('\n')], dir, 30_000)).code).toBe(0);
    const cliVersion = (JSON.parse(readFileSync(join(ROOT, 'packages', 'cli', 'package.json'), 'utf8')) as { version: string }).version;
    expect((await sh('npx', ['--no-install', 'mcpkit', '--version'], dir, 30_000)).stdout.trim()).toBe(cliVersion);

    const server = RawStdioClient.spawn(process.execPath, [join(dir, 'server.js')], { ...process.env, LOG_LEVEL: 'warn' }, dir);
    try {
      await server.initialize();
      expect(await server.request('tools/list')).toMatchObject({ result: { tools: [{ name: 'hello', description: 'Says hello' }] } });
      expect(await server.request('tools/call', { name: 'hello', arguments: {} })).toMatchObject({
        result: { content: [{ type: 'text', text: 'hello from the tarballs' }] },
      });
      expect(server.stray).toEqual([]);
      expect(await server.end()).toEqual({ code: 0, signal: null });
    } finally {
      server.kill();
    }
  }, 240_000);
});
