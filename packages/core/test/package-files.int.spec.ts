import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// tsc's incremental build info (tsconfig.base.json: dist/tsconfig.tsbuildinfo) is the build's
// cache: a package that publishes dist must leave it out of its tarball.
const PACKAGES = join(__dirname, '..', '..');

describe('published files of the mcpkit packages', () => {
  const manifests = readdirSync(PACKAGES).map((dir) => ({
    dir,
    files: (JSON.parse(readFileSync(join(PACKAGES, dir, 'package.json'), 'utf8')) as { files?: string[] }).files ?? [],
  }));

  it.each(manifests.map(({ dir, files }) => [dir, files] as const))('packages/%s leaves the build info out', (_dir, files) => {
    expect(files).toContain('dist');
    expect(files).toContain('!dist/tsconfig.tsbuildinfo');
  });
});
