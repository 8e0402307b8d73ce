import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Siblings use core's `/transport` subpath, which changes in any release: each package pins the
// mcpkit packages it uses exactly (`workspace:*` publishes as the very version), never a range.
const PACKAGES = join(__dirname, '..', '..');

describe('mcpkit packages pin each other exactly', () => {
  const manifests = readdirSync(PACKAGES).map((dir) => ({
    dir,
    manifest: JSON.parse(readFileSync(join(PACKAGES, dir, 'package.json'), 'utf8')) as Record<string, unknown>,
  }));

  it.each(manifests.map(({ dir, manifest }) => [dir, manifest] as const))('packages/%s', (_dir, manifest) => {
    const ranges: string[] = [];
    for (const field of ['dependencies', 'peerDependencies', 'devDependencies', 'optionalDependencies']) {
      for (const [name, spec] of Object.entries((manifest[field] ?? {}) as Record<string, string>)) {
        if (name.startsWith('@mcpkit/') && spec !== 'workspace:*') ranges.push(`${field}.${name}: ${spec}`);
      }
    }
    expect(ranges).toEqual([]);
  });
});
