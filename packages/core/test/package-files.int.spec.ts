import { execFile, execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// What each published package ships (`pnpm pack`'s file list, what the publish path packs), read
// from the built dist/: what Node loads, the declarations, the source maps of what it loads (with
// their sources inside, since src/ is not shipped), and no build cache (dist/tsconfig.tsbuildinfo),
// declaration map (it points into the unshipped src/), spec or test. A package bundled into
// dist/bundle (core, stdio) ships no per-file JavaScript: exactly the files its entries load.
const PACKAGES = join(__dirname, '..', '..');
const REPOSITORY = (JSON.parse(readFileSync(join(PACKAGES, '..', 'package.json'), 'utf8')) as { repository: { url: string } }).repository.url;

interface Manifest {
  name: string;
  private?: boolean;
  main: string;
  exports: Record<string, string | { default?: string }>;
  repository?: { url?: string; directory?: string };
}

const packages = readdirSync(PACKAGES)
  .map((folder) => ({ folder, dir: join(PACKAGES, folder), manifest: JSON.parse(readFileSync(join(PACKAGES, folder, 'package.json'), 'utf8')) as Manifest }))
  .filter(({ manifest }) => !manifest.private);

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain Node script of the repository
const { pnpmCommand } = require(join(PACKAGES, '..', 'scripts', 'registry', 'publish.js')) as { pnpmCommand(): [string, string[]] };

/**
 * What `pnpm pack` (the publish path: scripts/registry/publish.js) puts in each package's tarball,
 * by package name: one recursive dry run for all of them, so pnpm starts once.
 */
function packlists(names: string[]): Promise<Map<string, string[]>> {
  const [command, prefix] = pnpmCommand();
  const args = [...prefix, '--recursive', ...names.flatMap((name) => ['--filter', name]), 'pack', '--dry-run', '--json'];
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: join(PACKAGES, '..'), maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
      if (error) return reject(error);
      const packed = JSON.parse(stdout) as Array<{ name: string; files: Array<{ path: string }> }>;
      resolve(new Map(packed.map((pkg) => [pkg.name, pkg.files.map((file) => file.path).sort()])));
    });
  });
}

/** The files under `dir` that Node loads when every JavaScript entry of the package is required. */
function loadedFiles(dir: string, manifest: Manifest): string[] {
  const entries = Object.values(manifest.exports)
    .map((target) => (typeof target === 'string' ? target : target.default))
    .filter((target): target is string => target !== undefined && target.endsWith('.js'));
  const script = `for (const entry of ${JSON.stringify(entries)}) require(require('node:path').join(${JSON.stringify(dir)}, entry));
process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
  const loaded = JSON.parse(
    execFileSync(process.execPath, ['-e', script], { cwd: dir, encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'warn' } }),
  ) as string[];
  return loaded
    .filter((file) => file.startsWith(`${dir}/`) && !file.includes('/node_modules/'))
    .map((file) => file.slice(dir.length + 1))
    .sort();
}

describe('published files of the mcpkit packages', () => {
  const lists = new Map<string, string[]>();

  beforeAll(async () => {
    const byName = await packlists(packages.map(({ manifest }) => manifest.name));
    for (const { folder, manifest } of packages) lists.set(folder, byName.get(manifest.name) ?? []);
  }, 120_000);

  it('finds the packages', () => {
    expect(packages.map(({ manifest }) => manifest.name)).toEqual(expect.arrayContaining(['@mcpkit/core', '@mcpkit/stdio', '@mcpkit/cli']));
  });

  it.each(packages.map(({ folder }) => [folder]))('packages/%s ships its manifest, README, LICENSE and dist only', (folder) => {
    const files = lists.get(folder)!;
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json']));
    expect(files.filter((file) => !/^(LICENSE|README\.md|package\.json)$/.test(file) && !file.startsWith('dist/'))).toEqual([]);
    expect(files.filter((file) => /tsbuildinfo$|\.d\.ts\.map$|\.spec\.|(^|\/)test\//.test(file))).toEqual([]);
  });

  it.each(packages.map(({ folder }) => [folder]))('packages/%s: every shipped source map carries the sources it names', (folder) => {
    const dir = join(PACKAGES, folder);
    const maps = lists.get(folder)!.filter((file) => file.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(0);
    const incomplete = maps.filter((file) => {
      const map = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { sources: string[]; sourcesContent?: Array<string | null> };
      return map.sourcesContent?.length !== map.sources.length || map.sourcesContent.some((content) => typeof content !== 'string');
    });
    expect(incomplete).toEqual([]);
  });

  const bundled = packages.filter(({ manifest }) => manifest.main.startsWith('dist/bundle/'));

  it('core and stdio are bundled', () => {
    expect(bundled.map(({ folder }) => folder)).toEqual(expect.arrayContaining(['core', 'stdio']));
  });

  it.each(bundled.map(({ folder, dir, manifest }) => [folder, dir, manifest] as const))(
    'packages/%s ships exactly the JavaScript its entries load',
    (folder, dir, manifest) => {
      const shipped = lists.get(folder)!.filter((file) => file.endsWith('.js'));
      expect(shipped).toEqual(loadedFiles(dir, manifest));
    },
  );

  it.each(packages.map(({ folder, dir, manifest }) => [folder, dir, manifest] as const))(
    'packages/%s names its repository folder, and its README links nothing relative',
    (folder, dir, manifest) => {
      expect(manifest.repository).toEqual({ type: 'git', url: REPOSITORY, directory: `packages/${folder}` });
      // A README is read on the registry's page, where `../../docs` leads nowhere.
      expect(readFileSync(join(dir, 'README.md'), 'utf8').match(/\]\((?!https?:|#|mailto:)[^)]*\)/g) ?? []).toEqual([]);
    },
  );
});
