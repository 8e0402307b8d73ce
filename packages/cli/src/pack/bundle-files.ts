import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { ZipEntry } from './zip';

interface PackageJson {
  name?: string;
  files?: string[];
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

// Never shipped: what a published package leaves out, and what the bundle makes anew.
const SKIPPED = new Set(['node_modules', '.git', '.cache', 'coverage', '.DS_Store']);

function readPackage(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
}

/**
 * Every file under `dir`, as bundle paths under `at`. An installed package is taken whole (it is
 * what was published, plus what its install built: native addons); the project and workspace
 * links keep to the `files` of their package.json (a glob by the folder it starts in).
 */
function filesOf(dir: string, at: string, out: ZipEntry[]): void {
  const pkg = readPackage(dir);
  const published = dir.split(sep).includes('node_modules');
  const roots =
    pkg.files && !published
      ? ['package.json', 'README.md', 'LICENSE', ...pkg.files.map((path) => path.replace(/\/?[^/]*[*?[].*$/, ''))].filter(
          (path) => path && existsSync(join(dir, path)),
        )
      : readdirSync(dir);
  const walk = (path: string): void => {
    const name = path.split(sep).pop()!;
    // TypeScript's incremental build info is the build's cache, not the package.
    if (SKIPPED.has(name) || name.endsWith('.tsbuildinfo')) return;
    const full = join(dir, path);
    const stat = statSync(full);
    if (stat.isDirectory()) for (const child of readdirSync(full)) walk(join(path, child));
    else if (stat.isFile()) out.push({ path: `${at}${path.split(sep).join('/')}`, data: readFileSync(full), mode: stat.mode & 0o777 });
  };
  for (const root of new Set(roots)) walk(root);
}

/** Where `name` is installed for code in `from`: the nearest node_modules up the tree, resolved. */
function installed(name: string, from: string): string | undefined {
  for (let dir = from; ;) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    const parent = join(dir, '..');
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The files of a bundle: the project's own (its `files`, else everything but node_modules) and,
 * under node_modules/, every production dependency as installed (npm, pnpm or a workspace
 * link), each once; a second version of a package goes under the node_modules of the one that
 * needs it. Development dependencies stay out.
 */
export function bundleFiles(projectDir: string): ZipEntry[] {
  const files: ZipEntry[] = [];
  filesOf(projectDir, '', files);
  const placed = new Map<string, string>(); // bundle folder → the real folder it holds
  const visit = (dir: string, under: string): void => {
    const pkg = readPackage(dir);
    for (const name of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
      const real = installed(name, dir);
      if (real === undefined) continue; // an optional dependency not installed on this platform
      const top = `node_modules/${name}/`;
      const at = placed.get(top) === undefined || placed.get(top) === real ? top : `${under}node_modules/${name}/`;
      if (placed.get(at) === real) continue;
      placed.set(at, real);
      filesOf(real, at, files);
      visit(real, at);
    }
  };
  visit(realpathSync(projectDir), '');
  return files;
}
