import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const PACKAGES = join(__dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

function imports(file: string): string[] {
  // Code lines only: a JSDoc example may show an import, and a string a generated file's.
  const text = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(\*|\/\/|\/\*|"|`)/.test(line))
    .join('\n');
  return [...text.matchAll(/(?:from|import)\s+'([^']+)'/g)].map((match) => match[1]);
}

describe('package boundaries', () => {
  it('core never imports an adapter, fastify or a network module', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(join(PACKAGES, 'core', 'src'))) {
      for (const spec of imports(file)) {
        if (/^@mcpkit\//.test(spec) || /^(node:)?(net|http|https|http2|tls|dgram)$/.test(spec) || /^fastify/.test(spec)) {
          offenders.push(`${relative(PACKAGES, file)} imports ${spec}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('adapters reach core only through its public entries', () => {
    const { exports } = JSON.parse(readFileSync(join(PACKAGES, 'core', 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    const entries = Object.keys(exports).map((subpath) => `@mcpkit/core${subpath.slice(1)}`);
    const offenders: string[] = [];
    for (const pkg of readdirSync(PACKAGES).filter((name) => name !== 'core')) {
      const src = join(PACKAGES, pkg, 'src');
      for (const file of sourceFiles(src)) {
        for (const spec of imports(file))
          if (/^@mcpkit\/core\/|\.\.\/\.\.\/core/.test(spec) && !entries.includes(spec)) offenders.push(`${relative(PACKAGES, file)} imports ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it.each(readdirSync(PACKAGES))('@mcpkit/%s loads from its built entry in a fresh process', (pkg) => {
    // The package folder: its `main`, as an app's require of the package finds it.
    const entry = join(PACKAGES, pkg);
    const out = execFileSync(process.execPath, ['-e', `const m = require(${JSON.stringify(entry)}); process.stdout.write(String(Object.keys(m).length))`], {
      encoding: 'utf8',
    });
    expect(Number(out)).toBeGreaterThan(0);
  });
});
